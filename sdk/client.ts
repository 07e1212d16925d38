/**
 * Transport: configuration, authentication, one pooled keep-alive undici dispatcher per client,
 * timeouts, aborts, the retry policy, envelope unwrapping and typed errors. Area modules build on
 * `ApiClient.request` and never touch undici themselves.
 */
import { Agent, type Dispatcher } from "undici";
import type { z } from "zod";
import {
  AbortedError,
  AccountApiError,
  ConnectionError,
  ResponseShapeError,
  TimeoutError,
  errorFromResponse,
  type ApiErrorItem,
} from "./errors";
import { PACKAGE_NAME, PACKAGE_VERSION } from "./version";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface ResultInfo {
  page?: number;
  per_page?: number;
  count?: number;
  total_count?: number;
  cursor?: string;
}

/** What the observer sees. Headers are already redacted: the token never appears. */
export type TransportEvent =
  | { type: "request"; method: string; url: string; attempt: number; headers: Record<string, string> }
  | { type: "response"; method: string; url: string; attempt: number; status: number; durationMs: number }
  | { type: "retry"; method: string; url: string; attempt: number; delayMs: number; reason: string }
  | { type: "error"; method: string; url: string; attempt: number; error: AccountApiError };

export interface RetryOptions {
  /** Further attempts after the first. */
  maxRetries: number;
  /** First backoff step; doubles each attempt, with full jitter. */
  baseDelayMs: number;
  /** Cap on one computed backoff step. */
  maxDelayMs: number;
  /** Longest `Retry-After` we wait for; a longer one ends the retries and surfaces the error. */
  maxRetryAfterMs: number;
}

export interface ClientOptions {
  /** API root ending in `/client/v4`. Fallback: ACCOUNT_API_BASE_URL. */
  baseUrl?: string;
  /** Bearer token. Fallback: ACCOUNT_API_TOKEN. */
  token?: string;
  /** Default account id (at most 32 characters). Fallback: ACCOUNT_API_ACCOUNT_ID. */
  accountId?: string;
  /** Per-attempt timeout in ms (default 60 000). */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  /** Observer hook for logging and tests. */
  onEvent?: (event: TransportEvent) => void;
  /** Bring your own dispatcher (otherwise one keep-alive Agent per client). */
  dispatcher?: Dispatcher;
  /** Max sockets per origin of the built-in pool (default 16). */
  connections?: number;
  /** Extra text appended to the user agent. */
  userAgentSuffix?: string;
  /** Injectable for tests: sleep and randomness used by the backoff. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Environment to read fallbacks from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

export type Unwrap = "result" | "data" | "body";

export interface RequestSpec<T> {
  method: HttpMethod;
  /** Path below the base URL, built with the `path` template. */
  path: string;
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
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
  signal?: AbortSignal;
  timeoutMs?: number;
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

const DEFAULT_RETRY: RetryOptions = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

/** Methods that may be repeated without changing the outcome (RFC 9110 idempotent methods we use). */
const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(["GET", "PUT", "PATCH", "DELETE"]);
/** Statuses worth another attempt: timeouts, lock conflicts, throttling, server trouble. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 429, 500, 502, 503, 504]);
/** Connection-level failures worth another attempt (undici and errno codes). */
const RETRYABLE_ERROR_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_CLOSED",
]);

/**
 * Encodes each interpolated value as one path segment and refuses `.`/`..` and empty segments, so a
 * value can never climb out of the path it is placed in.
 */
export function path(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    const s = String(value);
    if (s === "" || s === "." || s === "..") {
      throw new AccountApiError("ERR_PATH_SEGMENT", `path segment ${JSON.stringify(s)} is not allowed`);
    }
    out += encodeURIComponent(s) + (strings[i + 1] ?? "");
  });
  return out;
}

/**
 * Decides whether and how long to wait before the next attempt. Returns undefined to stop.
 * - Only idempotent requests are repeated.
 * - A status outside RETRYABLE_STATUSES, or a non-connection error, is final.
 * - `retry-after-ms` and `Retry-After` (seconds or HTTP date) win over our backoff; one beyond
 *   maxRetryAfterMs ends the retries rather than hanging the caller.
 * - Otherwise exponential backoff with full jitter, capped at maxDelayMs.
 */
export function retryDelay(args: {
  attempt: number;
  idempotent: boolean;
  status?: number;
  errorCode?: string;
  headers?: Record<string, string>;
  options: RetryOptions;
  random: () => number;
  now?: number;
}): number | undefined {
  const { attempt, options } = args;
  if (!args.idempotent || attempt > options.maxRetries) return undefined;
  if (args.status !== undefined && !RETRYABLE_STATUSES.has(args.status)) return undefined;
  if (args.status === undefined && !(args.errorCode && RETRYABLE_ERROR_CODES.has(args.errorCode))) return undefined;
  const fromServer = parseRetryAfter(args.headers ?? {}, args.now ?? Date.now());
  if (fromServer !== undefined) return fromServer <= options.maxRetryAfterMs ? fromServer : undefined;
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step * args.random());
}

/** `retry-after-ms`, then `Retry-After` as delta-seconds or an HTTP date. */
export function parseRetryAfter(headers: Record<string, string>, now: number): number | undefined {
  const ms = headers["retry-after-ms"];
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const value = headers["retry-after"]?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError("wait"));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortedError("wait"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export interface ResolvedConfig {
  baseUrl: string;
  token: string;
  accountId: string | undefined;
}

/** Options win over the environment; fails fast on a missing or malformed value. */
export function resolveConfig(options: ClientOptions): ResolvedConfig {
  const env = options.env ?? process.env;
  const baseUrl = (options.baseUrl ?? env.ACCOUNT_API_BASE_URL ?? "").replace(/\/+$/, "");
  const token = options.token ?? env.ACCOUNT_API_TOKEN ?? "";
  const accountId = options.accountId ?? env.ACCOUNT_API_ACCOUNT_ID ?? undefined;
  if (!baseUrl) {
    throw new AccountApiError("ERR_CONFIG", "baseUrl: required (option baseUrl or ACCOUNT_API_BASE_URL)");
  }
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new AccountApiError("ERR_CONFIG", `baseUrl: not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new AccountApiError("ERR_CONFIG", "baseUrl: must be http or https");
  }
  if (!token) throw new AccountApiError("ERR_CONFIG", "token: required (option token or ACCOUNT_API_TOKEN)");
  if (accountId !== undefined && (accountId.length === 0 || accountId.length > 32)) {
    throw new AccountApiError("ERR_CONFIG", "accountId: must be 1 to 32 characters");
  }
  return { baseUrl, token, accountId };
}

export class ApiClient {
  readonly baseUrl: string;
  readonly defaultAccountId: string | undefined;
  readonly #token: string;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #timeoutMs: number;
  readonly #retry: RetryOptions;
  readonly #onEvent: ((e: TransportEvent) => void) | undefined;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #random: () => number;
  readonly #userAgent: string;

  constructor(options: ClientOptions = {}) {
    const cfg = resolveConfig(options);
    this.baseUrl = cfg.baseUrl;
    this.#token = cfg.token;
    this.defaultAccountId = cfg.accountId;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    if (!(this.#timeoutMs > 0)) throw new AccountApiError("ERR_CONFIG", "timeoutMs: must be > 0");
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    if (!(this.#retry.maxRetries >= 0)) throw new AccountApiError("ERR_CONFIG", "retry.maxRetries: must be >= 0");
    this.#onEvent = options.onEvent;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#random = options.random ?? Math.random;
    this.#ownsDispatcher = !options.dispatcher;
    this.#dispatcher =
      options.dispatcher ??
      new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: options.connections ?? 16 });
    this.#userAgent =
      `${PACKAGE_NAME}/${PACKAGE_VERSION} node/${process.versions.node}` +
      (options.userAgentSuffix ? ` ${options.userAgentSuffix}` : "");
  }

  /** The account to act on: an explicit one, else the client's default. */
  account(accountId?: string): string {
    const id = accountId ?? this.defaultAccountId;
    if (!id) throw new AccountApiError("ERR_CONFIG", "accountId: required (option accountId or ACCOUNT_API_ACCOUNT_ID)");
    if (id.length > 32) throw new AccountApiError("ERR_CONFIG", "accountId: at most 32 characters");
    return id;
  }

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    return (await this.requestWithInfo(spec)).value;
  }

  async requestWithInfo<T>(spec: RequestSpec<T>): Promise<ApiResponse<T>> {
    const res = await this.#send(spec.method, this.baseUrl + spec.path + queryString(spec.query), {
      body: spec.body,
      headers: spec.headers,
      idempotent: spec.idempotent ?? IDEMPOTENT_METHODS.has(spec.method),
      signal: spec.signal,
      timeoutMs: spec.timeoutMs,
      authorized: true,
    });
    const displayPath = spec.path;
    let json: unknown;
    try {
      json = res.body.length ? JSON.parse(res.body) : null;
    } catch {
      if (res.status >= 400) throw this.#apiError(spec.method, displayPath, res, null);
      throw new ResponseShapeError(spec.method, displayPath, "body is not JSON");
    }
    if (res.status >= 400) throw this.#apiError(spec.method, displayPath, res, json);
    const envelope = (json ?? {}) as Record<string, unknown>;
    const unwrap = spec.unwrap ?? "result";
    const payload = unwrap === "body" ? json : envelope[unwrap];
    const parsed = spec.schema.safeParse(payload);
    if (!parsed.success) {
      throw new ResponseShapeError(
        spec.method,
        displayPath,
        parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; "),
      );
    }
    return {
      value: parsed.data,
      status: res.status,
      headers: res.headers,
      resultInfo: envelope.result_info as ResultInfo | undefined,
      messages: Array.isArray(envelope.messages) ? envelope.messages : [],
    };
  }

  /**
   * A request to any absolute URL with the client's pool, timeouts and retries but without the
   * token (pages served to the public, such as markdown conversion, need no credentials).
   */
  async fetchRaw(
    url: string,
    init: { method?: "GET"; headers?: Record<string, string>; signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<RawResponse> {
    return this.#send(init.method ?? "GET", url, {
      headers: init.headers,
      idempotent: true,
      signal: init.signal,
      timeoutMs: init.timeoutMs,
      authorized: false,
    });
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  #apiError(method: string, path: string, res: RawResponse, json: unknown): Error {
    return errorFromResponse({
      status: res.status,
      errors: extractErrors(json),
      method,
      path,
      requestId: res.headers["x-request-id"] ?? res.headers["cf-ray"],
      body: json,
    });
  }

  async #send(
    method: HttpMethod,
    url: string,
    o: {
      body?: unknown;
      headers?: Record<string, string>;
      idempotent: boolean;
      signal?: AbortSignal;
      timeoutMs?: number;
      authorized: boolean;
    },
  ): Promise<RawResponse> {
    const timeoutMs = o.timeoutMs ?? this.#timeoutMs;
    const headers: Record<string, string> = {
      accept: "application/json",
      "user-agent": this.#userAgent,
      ...lowerKeys(o.headers ?? {}),
    };
    let payload: string | undefined;
    if (o.body !== undefined) {
      payload = JSON.stringify(o.body);
      headers["content-type"] ??= "application/json";
    }
    const redacted = { ...headers };
    if (o.authorized) {
      headers.authorization = `Bearer ${this.#token}`;
      redacted.authorization = "Bearer [redacted]";
    }
    const { origin, pathname, search } = new URL(url);
    for (let attempt = 1; ; attempt++) {
      if (o.signal?.aborted) throw new AbortedError(`${method} ${pathname}`);
      this.#onEvent?.({ type: "request", method, url, attempt, headers: redacted });
      const started = performance.now();
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
      let status: number | undefined;
      let resHeaders: Record<string, string> = {};
      let failure: AccountApiError | undefined;
      let errorCode: string | undefined;
      try {
        const res = await this.#dispatcher.request({
          origin,
          path: pathname + search,
          method,
          headers,
          body: payload,
          signal,
        });
        status = res.statusCode;
        resHeaders = flattenHeaders(res.headers);
        const text = await res.body.text();
        this.#onEvent?.({
          type: "response",
          method,
          url,
          attempt,
          status,
          durationMs: Math.round(performance.now() - started),
        });
        const result: RawResponse = { status, headers: resHeaders, body: text };
        const delay = retryDelay({
          attempt,
          idempotent: o.idempotent,
          status,
          headers: resHeaders,
          options: this.#retry,
          random: this.#random,
        });
        if (status < 400 || delay === undefined) return result;
        this.#onEvent?.({ type: "retry", method, url, attempt, delayMs: delay, reason: `HTTP ${status}` });
        await this.#sleep(delay, o.signal);
        continue;
      } catch (err) {
        if (err instanceof AccountApiError) throw err;
        if (o.signal?.aborted) failure = new AbortedError(`${method} ${pathname}`);
        else if (timeout.aborted) {
          failure = new TimeoutError(method, pathname, timeoutMs);
          errorCode = "ETIMEDOUT";
        } else {
          failure = new ConnectionError(method, pathname, err);
          errorCode = errorCodeOf(err);
        }
      }
      this.#onEvent?.({ type: "error", method, url, attempt, error: failure });
      const delay =
        failure instanceof AbortedError
          ? undefined
          : retryDelay({ attempt, idempotent: o.idempotent, errorCode, options: this.#retry, random: this.#random });
      if (delay === undefined) throw failure;
      this.#onEvent?.({ type: "retry", method, url, attempt, delayMs: delay, reason: failure.code });
      await this.#sleep(delay, o.signal);
    }
  }
}

function errorCodeOf(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code !== "UND_ERR_ABORTED") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function extractErrors(json: unknown): ApiErrorItem[] {
  if (!json || typeof json !== "object") return [];
  const body = json as { errors?: unknown; error?: unknown };
  const list = Array.isArray(body.errors) ? body.errors : body.error ? [body.error] : [];
  return list
    .filter((e): e is Record<string, unknown> => !!e && typeof e === "object")
    .map((e) => ({ code: Number(e.code ?? 0), message: String(e.message ?? "") }));
}

function queryString(query: RequestSpec<unknown>["query"]): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, v);
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}
