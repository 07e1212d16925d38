/**
 * Exchange recording. The emulator reports every API exchange through its `onExchange` option (an
 * onSend hook): recording there sees every caller alike (the sdk with its retries, `kit.raw`, the
 * runner's fault probes, a scenario's own fetch), with no change to the sdk's transport.
 */
import type { Exchange } from "../../emulator/index";
import { API_PREFIX } from "../../emulator/index";

/** Header `kit.raw` marks its requests with: their bodies are not the sdk's, so they are not validated. */
export const RAW_HEADER = "x-conformance-raw";
/**
 * Header `kit.call` marks its requests with: a request a scenario builds from the contract's schemas
 * for an operation the sdk has no method for yet; its body is validated as the sdk's is.
 */
export const DIRECT_HEADER = "x-conformance-direct";
/** Header the runner's fault probes carry (the answer is an injected failure, not the handler's). */
export const FAULT_HEADER = "x-conformance-fault";

export type Sender = "sdk" | "direct" | "raw" | "fault";

export interface RecordedExchange {
  /** 1-based order within the area's run. */
  seq: number;
  method: string;
  /** Path below the API root (`/accounts/...`), without query. */
  path: string;
  query: string;
  sender: Sender;
  requestContentType: string | undefined;
  /** Parsed JSON, raw bytes (multipart), or undefined when no body was sent. */
  requestBody: unknown;
  status: number;
  responseContentType: string | undefined;
  /** The answer's text ("" when none). */
  responseText: string;
  /** An injected fault dropped the answer before the client heard it. */
  dropped: boolean;
}

function header(h: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const v = h[name];
  if (Array.isArray(v)) return v.map(String).join(", ");
  return v === undefined ? undefined : String(v);
}

function payloadText(payload: unknown): string {
  if (typeof payload === "string") return payload;
  if (Buffer.isBuffer(payload)) return payload.toString("utf8");
  if (payload instanceof Uint8Array) return Buffer.from(payload).toString("utf8");
  // A stream (none of the API's routes answer with one): its text cannot be read here.
  return "";
}

export class Recorder {
  readonly exchanges: RecordedExchange[] = [];

  /** The emulator's `onExchange` option. */
  readonly onExchange = (e: Exchange): void => {
    const url = e.url.startsWith(API_PREFIX) ? e.url.slice(API_PREFIX.length) : e.url;
    const q = url.indexOf("?");
    const sender: Sender =
      header(e.headers, FAULT_HEADER) !== undefined
        ? "fault"
        : header(e.headers, RAW_HEADER) !== undefined
          ? "raw"
          : header(e.headers, DIRECT_HEADER) !== undefined
            ? "direct"
            : "sdk";
    this.exchanges.push({
      seq: this.exchanges.length + 1,
      method: e.method,
      path: q < 0 ? url : url.slice(0, q),
      query: q < 0 ? "" : url.slice(q + 1),
      sender,
      requestContentType: header(e.headers, "content-type"),
      requestBody: e.body,
      status: e.status,
      responseContentType: header(e.responseHeaders, "content-type"),
      responseText: payloadText(e.payload),
      dropped: e.fault === "drop",
    });
  };
}

/** One line naming an exchange in failures: `#12 sdk POST /accounts/…/jobs → 400`. */
export function describeExchange(x: RecordedExchange): string {
  const q = x.query ? `?${x.query}` : "";
  return `#${x.seq} ${x.sender} ${x.method} ${x.path}${q} → ${x.status}`;
}
