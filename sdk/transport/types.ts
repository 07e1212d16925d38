/**
 * The shapes a request and its answer take on their way through the transport, in a module of their
 * own so that the transport's parts (config, retry, send, envelope) share them without importing
 * each other.
 */
import type { z } from "zod";
import type { CallOptions } from "../core";
import type { AccountApiError } from "../errors";
import type { ResultInfo } from "../result-info";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type { ResultInfo };

/** What the observer sees. Headers, URLs and error messages are already redacted: the token never appears. */
export type TransportEvent =
  | { type: "request"; method: string; url: string; attempt: number; headers: Record<string, string> }
  | {
      type: "response";
      method: string;
      url: string;
      attempt: number;
      status: number;
      durationMs: number;
      requestId?: string;
    }
  | { type: "retry"; method: string; url: string; attempt: number; delayMs: number; reason: string }
  | { type: "error"; method: string; url: string; attempt: number; error: AccountApiError };

export type Unwrap = "result" | "data" | "body";

export interface RequestSpec<T> extends CallOptions {
  method: HttpMethod;
  /** Path below the base URL, built with the `path` template. */
  path: string;
  /** Query parameters; undefined (and null) values are left out, arrays repeat the key. */
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  /** JSON-encoded, except a FormData (multipart) or bytes (Uint8Array/ArrayBuffer), which go as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Schema of the unwrapped payload. */
  schema: z.ZodType<T>;
  /** Where the payload sits: `result` (standard envelope), `data` (meetings) or the whole body. */
  unwrap?: Unwrap;
  /**
   * Whether repeating the request is safe. Defaults to true for GET/PUT/PATCH/DELETE and false for
   * POST: a POST that creates something must not be blindly repeated. A POST that only reads
   * (domain-check) passes true.
   */
  idempotent?: boolean;
}

export interface ApiResponse<T> {
  value: T;
  status: number;
  headers: Record<string, string>;
  resultInfo?: ResultInfo;
  messages: unknown[];
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}
