/**
 * Transport: configuration, authentication, one pooled keep-alive undici dispatcher per client,
 * timeouts, aborts, the retry policy, envelope unwrapping and typed errors. Area modules build on
 * `ApiClient.request` and never touch undici themselves.
 */
import { backoff, systemClock, type CallOptions } from "./core";
import type { Dispatcher } from "undici";
import { z } from "zod";
import {
  AbortedError,
  AccountApiError,
  ConfigurationError,
  ConnectionError,
  InvalidPathError,
  ResponseShapeError,
  TimeoutError,
  ValidationError,
  apiErrorItems,
  errorFromResponse,
} from "./errors";
import { PACKAGE_NAME, PACKAGE_VERSION } from "./version";
import { FreshReads } from "./fresh-reads";
import { TOO_DEEP_RULE, tooDeep } from "./validate";
import type { ResultInfo } from "./result-info";

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

export interface RetryOptions {
  /** Further attempts after a failure other than a 429. */
  maxRetries: number;
  /**
   * Further attempts after 429s, counted apart: a 429 is the server asking us to wait, having done
   * nothing, so a busy token must not use up the budget kept for real failures. `deadlineMs` still
   * bounds the whole call. Default: `maxRetries`, so `maxRetries: 0` still means one attempt.
   */
  maxThrottledRetries: number;
  /** First backoff step; doubles each attempt, with jitter over its upper half. */
  baseDelayMs: number;
  /** Cap on one computed backoff step. */
  maxDelayMs: number;
  /** Longest `Retry-After` we wait for; a longer one ends the retries and surfaces the error. */
  maxRetryAfterMs: number;
  /**
   * Overall budget of one call, every attempt and pause included (0: none). A pause that would end
   * past it ends the retries instead, and each attempt's timeout is cut to the time left, so a call
   * never outlives it by more than one attempt's set-up.
   */
  deadlineMs: number;
}

export interface ClientOptions {
  /** API root ending in `/client/v4`. Fallback: ACCOUNT_API_BASE_URL, then the public service's (DEFAULT_BASE_URL). */
  baseUrl?: string;
  /** Bearer token. Fallback: ACCOUNT_API_TOKEN. */
  token?: string;
  /** Default account id (at most 32 characters). Fallback: ACCOUNT_API_ACCOUNT_ID. */
  accountId?: string;
  /**
   * Let a plain `http://` base URL name a host other than loopback (127.0.0.0/8, ::1, localhost),
   * where the token would travel in clear. Fallback: ACCOUNT_API_INSECURE_HTTP (`true`/`1` or
   * `false`/`0`). Default false: such a base URL is a ConfigurationError before any request.
   */
  insecureHttp?: boolean;
  /** Per-attempt timeout in ms (default 60 000). */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  /** Observer hook for logging and tests. An exception it throws is ignored. */
  onEvent?: (event: TransportEvent) => void;
  /** Bring your own dispatcher (otherwise one keep-alive Agent per client). */
  dispatcher?: Dispatcher;
  /** Max sockets per origin of the built-in pool (default 16). */
  connections?: number;
  /** Extra text appended to the user agent. */
  userAgentSuffix?: string;
  /**
   * Let identical GETs made at once share one request (default false). Each still gets an answer
   * that began after it asked (sdk/fresh-reads.ts), so this never returns older data than a request
   * of its own would; it only saves requests, e.g. many resources each listing the same collection.
   * A call with its own signal, timeout or headers always goes alone.
   */
  shareReads?: boolean;
  /** Injectable for tests: sleep and randomness used by the backoff. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Injectable clock (ms since the epoch) for `Retry-After` dates. Default Date.now. */
  now?: () => number;
  /** Environment to read fallbacks from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

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

const DEFAULT_RETRY: Omit<RetryOptions, "maxThrottledRetries"> = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  deadlineMs: 0,
};
const DEFAULT_TIMEOUT_MS = 60_000;
/** Longest delay a Node timer supports; a larger timeout would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** Methods that may be repeated without changing the outcome (RFC 9110 idempotent methods we use). */
const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(["GET", "PUT", "PATCH", "DELETE"]);
/**
 * Statuses worth another attempt: request timeout, throttling, server trouble. 409 is left out on
 * purpose: in this API it is a business conflict (already exists), which a retry cannot fix. 501 and
 * 505 are left out as they will not change either.
 */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
/** Throttled: the server did nothing, so even a creating POST may go again. */
const THROTTLED = 429;
/** Connection-level failures worth another attempt for a request that is safe to repeat. */
const RETRYABLE_ERROR_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_CLOSED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);
/**
 * Failures that happen before a connection exists, so the request provably never reached the server:
 * repeating even a creating POST cannot make a duplicate.
 */
const NOT_SENT_ERROR_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);
/** undici's own timers; reported as our TimeoutError. */
const TIMEOUT_ERROR_CODES: ReadonlySet<string> = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);
/** Request headers that carry credentials: shown to the observer as `[redacted]`. */
const SECRET_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "x-auth-key",
]);

/**
 * Encodes each interpolated value as one path segment and refuses `.`/`..`, empty segments and
 * missing values, so a value can never climb out of the path it is placed in nor silently become
 * "undefined".
 */
export function path(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    if (typeof value === "number" ? !Number.isFinite(value) : typeof value !== "string") {
      throw new InvalidPathError(
        `path segment ${i + 1}: must be a string or a finite number, got ${String(value)}`,
      );
    }
    const s = String(value);
    if (s === "" || s === "." || s === "..") {
      throw new InvalidPathError(`path segment ${JSON.stringify(s)} is not allowed`);
    }
    out += encodeURIComponent(s) + (strings[i + 1] ?? "");
  });
  return out;
}

/**
 * The whole retry policy. Returns how long to wait before the next attempt, or undefined to stop.
 * Rules, in order:
 * 1. At most `maxThrottledRetries` further attempts after 429s and `maxRetries` after anything else;
 *    `attempt` counts the failing answers of the same kind (429s, or the rest) so far.
 * 2. A 429 is repeated for every method, a creating POST included: the server refused the request
 *    before doing anything. Any other HTTP answer is repeated only if the request is safe to repeat
 *    (`idempotent`) and its status is in RETRYABLE_STATUSES; 4xx other than 408/429 are final.
 * 3. A connection failure is repeated if the request is safe to repeat and the errno/undici code is in
 *    RETRYABLE_ERROR_CODES — or, for any method, if it is in NOT_SENT_ERROR_CODES (nothing was sent).
 * 4. The server's word wins: `retry-after-ms`, then `Retry-After` (seconds or HTTP date). One beyond
 *    `maxRetryAfterMs` ends the retries and surfaces the error rather than hanging the caller.
 * 5. Otherwise exponential backoff `base * 2^(attempt-1)` capped at `maxDelayMs`, with "equal jitter"
 *    (uniform over the upper half of the step) so that clients spread out yet each wait still grows.
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
  const cap = args.status === THROTTLED ? options.maxThrottledRetries : options.maxRetries;
  if (attempt > cap) return undefined;
  if (args.status !== undefined) {
    if (!RETRYABLE_STATUSES.has(args.status)) return undefined;
    if (!args.idempotent && args.status !== THROTTLED) return undefined;
  } else {
    const code = args.errorCode;
    if (!code) return undefined;
    const safe = NOT_SENT_ERROR_CODES.has(code) || (args.idempotent && RETRYABLE_ERROR_CODES.has(code));
    if (!safe) return undefined;
  }
  const fromServer = parseRetryAfter(args.headers ?? {}, args.now ?? Date.now());
  if (fromServer !== undefined) return fromServer <= options.maxRetryAfterMs ? fromServer : undefined;
  return backoff(attempt, { baseMs: options.baseDelayMs, capMs: options.maxDelayMs, random: args.random });
}

/** `retry-after-ms`, then `Retry-After` as delta-seconds or an HTTP date. Malformed values are ignored. */
export function parseRetryAfter(headers: Record<string, string>, now: number): number | undefined {
  const ms = headers["retry-after-ms"]?.trim();
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return Math.ceil(Number(ms));
  const value = headers["retry-after"]?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Every HTTP-date form starts with a day name; without this check Date.parse("1.5") would be a date.
  if (!/^[A-Za-z]{3}/.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface ResolvedConfig {
  baseUrl: string;
  token: string;
  accountId: string | undefined;
}

/**
 * The word the error about plain http uses for the setting that allows it: each caller (the command
 * line, the provider) puts its own name for it in its place (`--insecure-http`, `account-api:insecureHttp`).
 */
export const INSECURE_HTTP_SETTING = "insecureHttp";

/** Whether a URL's host is this machine: 127.0.0.0/8, ::1 or localhost (as the URL parser spells them). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host === "[::1]") return true;
  // The parser has already turned 127.1, 0x7f.0.0.1 and the like into dotted quads.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A boolean setting: the option as given, else its environment variable (`true`/`1`, `false`/`0`). */
function pickFlag(option: unknown, envValue: string | undefined, name: string): boolean {
  if (option !== undefined) {
    if (typeof option !== "boolean") throw new ConfigurationError(`${name}: must be a boolean`, name);
    return option;
  }
  const v = envValue?.trim().toLowerCase();
  if (!v || v === "false" || v === "0") return false;
  if (v === "true" || v === "1") return true;
  throw new ConfigurationError(`${name}: must be true or false (1 or 0)`, name);
}

/** The public service's API root: the base URL when neither the option nor the environment sets one. */
export const DEFAULT_BASE_URL = "https://api.cloudflare.com/client/v4";

/** An option, else its environment variable; an empty environment variable counts as unset. */
function pick(option: unknown, envValue: string | undefined, name: string): string | undefined {
  if (option !== undefined) {
    if (typeof option !== "string") throw new ConfigurationError(`${name}: must be a string`, name);
    return option.trim();
  }
  const v = envValue?.trim();
  return v ? v : undefined;
}

/** Options win over the environment; fails fast on a missing or malformed value. */
export function resolveConfig(options: ClientOptions): ResolvedConfig {
  const env = options.env ?? process.env;
  const baseUrl = (pick(options.baseUrl, env.ACCOUNT_API_BASE_URL, "baseUrl") || DEFAULT_BASE_URL).replace(
    /\/+$/,
    "",
  );
  const token = pick(options.token, env.ACCOUNT_API_TOKEN, "token") ?? "";
  const accountId = pick(options.accountId, env.ACCOUNT_API_ACCOUNT_ID, "accountId");
  const bad = (setting: string, rule: string) => new ConfigurationError(`${setting}: ${rule}`, setting);
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw bad("baseUrl", `not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw bad("baseUrl", "must be http or https");
  if (parsed.username || parsed.password) throw bad("baseUrl", "must not carry credentials (use token)");
  if (parsed.search || parsed.hash || baseUrl.includes("?") || baseUrl.includes("#"))
    throw bad("baseUrl", "must not have a query or fragment");
  const insecureHttp = pickFlag(options.insecureHttp, env.ACCOUNT_API_INSECURE_HTTP, INSECURE_HTTP_SETTING);
  if (parsed.protocol === "http:" && !insecureHttp && !isLoopbackHost(parsed.hostname))
    throw bad(
      "baseUrl",
      `plain http only to a loopback host (127.0.0.0/8, ::1, localhost), or the token travels in clear to ${parsed.host}: use https, or allow it with ${INSECURE_HTTP_SETTING}`,
    );
  if (!token) throw bad("token", "required (option token or ACCOUNT_API_TOKEN)");
  // The value itself is never quoted: it is the secret.
  if (!/^[\x21-\x7e]+$/.test(token)) throw bad("token", "must be printable ASCII without spaces");
  if (accountId !== undefined && (accountId.length < 1 || accountId.length > 32))
    throw bad("accountId", "must be 1 to 32 characters");
  return { baseUrl, token, accountId };
}

function checkTimeout(value: unknown, name: string): number {
  if (typeof value !== "number" || !(value > 0) || value > MAX_TIMER_MS) {
    throw new ConfigurationError(`${name}: must be a number of ms between 1 and ${MAX_TIMER_MS}`);
  }
  return Math.ceil(value);
}

function checkRetry(retry: RetryOptions): RetryOptions {
  for (const key of ["maxRetries", "maxThrottledRetries"] as const) {
    if (!Number.isInteger(retry[key]) || retry[key] < 0) {
      throw new ConfigurationError(`retry.${key}: must be an integer >= 0`);
    }
  }
  for (const key of ["baseDelayMs", "maxDelayMs", "maxRetryAfterMs", "deadlineMs"] as const) {
    const v = retry[key];
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
      throw new ConfigurationError(`retry.${key}: must be a finite number >= 0`);
    }
  }
  return retry;
}

function checkFunction(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== "function")
    throw new ConfigurationError(`${name}: must be a function`);
}

export class ApiClient {
  readonly baseUrl: string;
  readonly defaultAccountId: string | undefined;
  /** `pulumi-account-api/<version> node/<version>[ suffix]`. */
  readonly userAgent: string;
  readonly #token: string;
  /** The token as it may appear in text: raw and URL-encoded. */
  readonly #secrets: readonly string[];
  /** The caller's dispatcher, or ours once the first request is sent (see `#dispatch`). */
  #dispatcher: Dispatcher | undefined;
  readonly #ownsDispatcher: boolean;
  readonly #connections: number;
  readonly #timeoutMs: number;
  readonly #retry: RetryOptions;
  readonly #onEvent: ((e: TransportEvent) => void) | undefined;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #random: () => number;
  readonly #now: () => number;
  /**
   * Until when (on `#now`) the server asked this token to wait: a 429's `Retry-After` speaks for
   * the caller, not the one request, so the client's other calls hold too instead of each spending
   * a request to be told the same.
   */
  #throttledUntil = 0;
  /** Requests in flight that identical GETs may join; undefined unless `shareReads`. */
  readonly #sharedReads: FreshReads<RawResponse> | undefined;

  constructor(options: ClientOptions = {}) {
    if (options === null || typeof options !== "object")
      throw new ConfigurationError("options: must be an object");
    const cfg = resolveConfig(options);
    this.baseUrl = cfg.baseUrl;
    this.#token = cfg.token;
    this.#secrets = [...new Set([cfg.token, encodeURIComponent(cfg.token)])];
    this.defaultAccountId = cfg.accountId;
    this.#timeoutMs = checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, "timeoutMs");
    const retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#retry = checkRetry({
      ...retry,
      maxThrottledRetries: retry.maxThrottledRetries ?? retry.maxRetries,
    });
    for (const name of ["onEvent", "sleep", "random", "now"] as const) checkFunction(options[name], name);
    this.#onEvent = options.onEvent;
    this.#sleep = options.sleep ?? systemClock.sleep;
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
    const connections = options.connections ?? 16;
    if (!Number.isInteger(connections) || connections < 1) {
      throw new ConfigurationError("connections: must be an integer >= 1");
    }
    if (options.dispatcher !== undefined && typeof options.dispatcher?.request !== "function") {
      throw new ConfigurationError("dispatcher: must be an undici Dispatcher");
    }
    const suffix = options.userAgentSuffix;
    if (suffix !== undefined && (typeof suffix !== "string" || /[\r\n]/.test(suffix))) {
      throw new ConfigurationError("userAgentSuffix: must be a string on one line");
    }
    if (options.shareReads !== undefined && typeof options.shareReads !== "boolean") {
      throw new ConfigurationError("shareReads: must be a boolean");
    }
    this.#sharedReads = options.shareReads ? new FreshReads<RawResponse>() : undefined;
    this.#ownsDispatcher = !options.dispatcher;
    this.#dispatcher = options.dispatcher;
    this.#connections = connections;
    this.userAgent =
      `${PACKAGE_NAME}/${PACKAGE_VERSION} node/${process.versions.node}` + (suffix ? ` ${suffix}` : "");
  }

  /** The account to act on: an explicit one, else the client's default. */
  account(accountId?: string): string {
    const id = accountId ?? this.defaultAccountId;
    if (!id)
      throw new ConfigurationError(
        "accountId: required (option accountId or ACCOUNT_API_ACCOUNT_ID)",
        "accountId",
      );
    if (id.length > 32) throw new ConfigurationError("accountId: at most 32 characters", "accountId");
    return id;
  }

  /** Replaces every occurrence of the token (raw or URL-encoded) with `[redacted]`. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join("[redacted]");
    return out;
  }

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    return (await this.requestWithInfo(spec)).value;
  }

  /** The URL and the authorized send of an API request (its path checked first). */
  #prepare(spec: Omit<RequestSpec<unknown>, "schema" | "unwrap">): {
    url: string;
    displayPath: string;
    send: () => Promise<RawResponse>;
  } {
    if (typeof spec.path !== "string" || !spec.path.startsWith("/") || spec.path.includes("#")) {
      throw new InvalidPathError(
        `path: must start with "/" and have no fragment, got ${JSON.stringify(spec.path)}`,
      );
    }
    const displayPath = spec.path.split("?")[0]!;
    const url = this.baseUrl + spec.path + queryString(spec.query, spec.path);
    const send = (): Promise<RawResponse> =>
      this.#send(spec.method, url, {
        body: spec.body,
        headers: spec.headers,
        idempotent: spec.idempotent ?? IDEMPOTENT_METHODS.has(spec.method),
        signal: spec.signal,
        timeoutMs: spec.timeoutMs,
        authorized: true,
        displayPath,
      });
    return { url, displayPath, send };
  }

  async requestWithInfo<T>(spec: RequestSpec<T>): Promise<ApiResponse<T>> {
    const { url, displayPath, send } = this.#prepare(spec);
    const shareable =
      spec.method === "GET" &&
      spec.body === undefined &&
      spec.headers === undefined &&
      spec.signal === undefined &&
      spec.timeoutMs === undefined;
    const res = this.#sharedReads && shareable ? await this.#sharedReads.read(url, send) : await send();
    let json: unknown;
    try {
      json = res.body.trim().length ? JSON.parse(res.body) : null;
    } catch {
      if (res.status >= 400) throw this.#apiError(spec.method, displayPath, res, undefined);
      throw this.#shapeError(
        spec.method,
        displayPath,
        `body is not JSON (content-type ${res.headers["content-type"] ?? "none"})`,
      );
    }
    // An empty body (204) is an empty envelope: the schema decides whether nothing is acceptable.
    const envelope = isRecord(json) ? json : json === null ? {} : undefined;
    // A 2xx whose envelope says it failed is still a failure.
    if (res.status >= 400 || envelope?.success === false)
      throw this.#apiError(spec.method, displayPath, res, json);
    const unwrap = spec.unwrap ?? "result";
    if (unwrap !== "body" && !envelope) {
      throw this.#shapeError(spec.method, displayPath, `expected an envelope object with "${unwrap}"`);
    }
    const payload = unwrap === "body" ? json : envelope![unwrap];
    const parsed = spec.schema.safeParse(payload);
    if (!parsed.success) {
      const prefix = unwrap === "body" ? "" : unwrap;
      const detail = parsed.error.issues
        .map((i) => `${[prefix, ...i.path.map(String)].filter(Boolean).join(".") || "(root)"}: ${i.message}`)
        .join("; ");
      throw this.#shapeError(spec.method, displayPath, detail);
    }
    return {
      value: parsed.data,
      status: res.status,
      headers: res.headers,
      resultInfo: resultInfoOf(envelope?.result_info),
      messages: Array.isArray(envelope?.messages) ? envelope.messages : [],
    };
  }

  /**
   * An API request whose answer is not a JSON envelope (a file download): the token, the retries and
   * the typed errors of `request`, and the body as text.
   */
  async requestRaw(spec: Omit<RequestSpec<unknown>, "schema" | "unwrap">): Promise<RawResponse> {
    const { displayPath, send } = this.#prepare(spec);
    const res = await send();
    if (res.status < 400) return res;
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = undefined;
    }
    throw this.#apiError(spec.method, displayPath, res, json);
  }

  /**
   * A request to any absolute URL with the client's pool, timeouts and retries but without the
   * token (pages served to the public, such as markdown conversion, need no credentials).
   */
  async fetchRaw(
    url: string,
    init: CallOptions & { method?: "GET"; headers?: Record<string, string> } = {},
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
    if (this.#ownsDispatcher) await this.#dispatcher?.close();
  }

  /**
   * The dispatcher, made on the first request: undici takes about 50 ms to load, and a provider host's
   * first answers (configure, check) and a program that only declares resources send nothing.
   */
  #dispatch(): Dispatcher {
    if (this.#dispatcher) return this.#dispatcher;
    const undici: typeof import("undici") = require("undici");
    this.#dispatcher = new undici.Agent({
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      connections: this.#connections,
    });
    return this.#dispatcher;
  }

  /** The client's clock (ms), on which `deadlineMs` and `Retry-After` dates are measured. */
  now(): number {
    return this.#now();
  }

  /**
   * The same policy for what only a caller can repeat: a create whose outcome was unknown, which a
   * lookup then proved had not landed. The pause before send number `sent + 1`, or undefined to give
   * up (retries used up, or the pause would end past the deadline counted from `startedAt`, a `now()`).
   */
  retryAfterUnlanded(sent: number, startedAt: number): number | undefined {
    if (sent > this.#retry.maxRetries) return undefined;
    const delay = backoff(sent, {
      baseMs: this.#retry.baseDelayMs,
      capMs: this.#retry.maxDelayMs,
      random: this.#random,
    });
    return this.#withinDeadline(startedAt, delay) ? delay : undefined;
  }

  /** Pauses on the client's sleeper (injected in tests); an abort is the caller's AbortedError. */
  pause(ms: number, what: string, signal?: AbortSignal): Promise<void> {
    return this.#wait(ms, signal, what);
  }

  /** Whether a pause of `delay` from now still ends within the deadline of a call begun at `startedAt`. */
  #withinDeadline(startedAt: number, delay: number): boolean {
    const budget = this.#retry.deadlineMs;
    return budget === 0 || this.#now() - startedAt + delay < budget;
  }

  /** An attempt's timeout: the client's (or the call's), cut to what is left of the deadline. */
  #attemptTimeout(timeoutMs: number, startedAt: number): number {
    const budget = this.#retry.deadlineMs;
    if (budget === 0) return timeoutMs;
    return Math.max(1, Math.min(timeoutMs, budget - (this.#now() - startedAt)));
  }

  #apiError(method: string, path: string, res: RawResponse, json: unknown): Error {
    const snippet = json === undefined ? res.body.trim().slice(0, 200) : "";
    const shown = json === undefined ? undefined : this.#redactDeep(json);
    return errorFromResponse({
      status: res.status,
      errors: apiErrorItems(shown),
      method,
      path: this.redact(path),
      requestId: res.headers["x-request-id"] ?? res.headers["cf-ray"],
      body: json === undefined ? this.redact(res.body) : shown,
      hint: snippet ? `body: ${this.redact(snippet)}` : undefined,
    });
  }

  #shapeError(method: string, path: string, detail: string): ResponseShapeError {
    return new ResponseShapeError(method, this.redact(path), this.redact(detail));
  }

  #redactHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) out[this.redact(k)] = this.redact(v);
    return out;
  }

  #redactDeep(value: unknown): unknown {
    if (typeof value === "string") return this.redact(value);
    if (Array.isArray(value)) return value.map((v) => this.#redactDeep(v));
    if (isRecord(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.redact(k), this.#redactDeep(v)]));
    }
    return value;
  }

  /** The observer must never break a request, so what it throws is dropped. */
  #emit(event: TransportEvent): void {
    if (!this.#onEvent) return;
    try {
      this.#onEvent(event);
    } catch {
      // a failing logger is not the request's failure
    }
  }

  async #send(
    method: HttpMethod,
    url: string,
    o: CallOptions & {
      body?: unknown;
      headers?: Record<string, string>;
      idempotent: boolean;
      authorized: boolean;
      /** How errors name the path: the API path below the base URL, never the query. */
      displayPath?: string;
    },
  ): Promise<RawResponse> {
    const callTimeoutMs =
      o.timeoutMs === undefined ? this.#timeoutMs : checkTimeout(o.timeoutMs, "timeoutMs");
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new ValidationError("request", [{ field: "url", rule: "must be an absolute http or https URL" }]);
    }
    if (target.protocol !== "http:" && target.protocol !== "https:") {
      throw new ValidationError("request", [{ field: "url", rule: "must be an absolute http or https URL" }]);
    }
    const { origin, pathname, search } = target;
    const shownUrl = this.redact(url);
    const shownPath = this.redact(o.displayPath ?? pathname);
    const what = `${method} ${shownPath}`;
    const headers: Record<string, string> = {
      accept: "application/json",
      "user-agent": this.userAgent,
      ...lowerKeys(o.headers ?? {}),
    };
    const encoded = await encodeBody(o.body);
    if (encoded?.contentType) headers["content-type"] ??= encoded.contentType;
    if (o.authorized) headers.authorization = `Bearer ${this.#token}`;
    const shownHeaders = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, SECRET_HEADERS.has(k) ? redactHeader(v) : this.redact(v)]),
    );

    const callStarted = this.#now();
    let throttled = 0;
    let failed = 0;
    // The last hold this call has already waited out, so that its own Retry-After is not waited twice.
    let heldUntil = 0;
    for (let attempt = 1; ; attempt++) {
      if (o.signal?.aborted) throw new AbortedError(what, { cause: o.signal.reason });
      if (o.authorized && this.#throttledUntil > heldUntil) {
        heldUntil = this.#throttledUntil;
        const hold = heldUntil - this.#now();
        // Bounded like any server wait: a clock set back must not hold calls for hours.
        if (hold > 0 && hold <= this.#retry.maxRetryAfterMs && this.#withinDeadline(callStarted, hold))
          await this.#wait(hold, o.signal, what);
      }
      this.#emit({ type: "request", method, url: shownUrl, attempt, headers: { ...shownHeaders } });
      const started = performance.now();
      const timeoutMs = this.#attemptTimeout(callTimeoutMs, callStarted);
      // One controller per attempt, fed by our timer and the caller's signal; both are detached in
      // `finally`, so a long-lived caller signal reused for many requests collects no listeners.
      const attempt$ = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        attempt$.abort(new DOMException(`no response within ${timeoutMs} ms`, "TimeoutError"));
      }, timeoutMs);
      const onCallerAbort = (): void => attempt$.abort(o.signal?.reason);
      o.signal?.addEventListener("abort", onCallerAbort, { once: true });
      let result: RawResponse | undefined;
      let failure: AccountApiError | undefined;
      let errorCode: string | undefined;
      try {
        const res = await this.#dispatch().request({
          origin,
          path: pathname + search,
          method,
          headers,
          body: encoded?.payload,
          signal: attempt$.signal,
          // Our per-attempt timeout governs; undici's own 300 s timers would cut a longer one short.
          headersTimeout: 0,
          bodyTimeout: 0,
        });
        // A server may echo what it was sent (the Authorization header into x-request-id): every
        // header kept is redacted as a body is, so no error, event or caller ever sees the token.
        const resHeaders = this.#redactHeaders(flattenHeaders(res.headers));
        result = { status: res.statusCode, headers: resHeaders, body: await res.body.text() };
        // undici hands a kept-alive socket back to its pool one event-loop turn after the response
        // (setImmediate); waiting that turn lets the caller's next request reuse it instead of
        // opening a second connection.
        await new Promise<void>((resolve) => setImmediate(resolve));
      } catch (err) {
        errorCode = errorCodeOf(err);
        if (o.signal?.aborted) {
          failure = new AbortedError(what, { cause: o.signal.reason });
        } else if (timedOut || (errorCode && TIMEOUT_ERROR_CODES.has(errorCode))) {
          failure = new TimeoutError(method, shownPath, timeoutMs);
          errorCode = "ETIMEDOUT";
        } else {
          failure = new ConnectionError(method, shownPath, err);
          failure.message = this.redact(failure.message);
        }
      } finally {
        clearTimeout(timer);
        o.signal?.removeEventListener("abort", onCallerAbort);
      }

      let delay: number | undefined;
      let reason: string;
      if (result) {
        this.#emit({
          type: "response",
          method,
          url: shownUrl,
          attempt,
          status: result.status,
          durationMs: Math.round(performance.now() - started),
          requestId: result.headers["x-request-id"] ?? result.headers["cf-ray"],
        });
        if (result.status < 400) return result;
        const isThrottled = result.status === THROTTLED;
        delay = retryDelay({
          attempt: isThrottled ? ++throttled : ++failed,
          idempotent: o.idempotent,
          status: result.status,
          headers: result.headers,
          options: this.#retry,
          random: this.#random,
          now: this.#now(),
        });
        if (delay === undefined || !this.#withinDeadline(callStarted, delay)) return result;
        if (o.authorized && isThrottled && parseRetryAfter(result.headers, this.#now()) !== undefined) {
          heldUntil = this.#now() + delay;
          this.#throttledUntil = Math.max(this.#throttledUntil, heldUntil);
        }
        reason = `HTTP ${result.status}`;
      } else {
        const error = failure!;
        this.#emit({ type: "error", method, url: shownUrl, attempt, error });
        delay =
          error instanceof AbortedError
            ? undefined
            : retryDelay({
                attempt: ++failed,
                idempotent: o.idempotent,
                errorCode,
                options: this.#retry,
                random: this.#random,
              });
        if (delay === undefined || !this.#withinDeadline(callStarted, delay)) throw error;
        reason = errorCode ? `${error.code} ${errorCode}` : error.code;
      }
      this.#emit({ type: "retry", method, url: shownUrl, attempt, delayMs: delay, reason });
      await this.#wait(delay, o.signal, what);
    }
  }

  /** Sleeps between attempts; an abort while waiting is the caller's AbortedError, not the sleeper's. */
  async #wait(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
    try {
      await this.#sleep(ms, signal);
    } catch (err) {
      if (signal?.aborted) throw new AbortedError(what, { cause: signal.reason });
      throw err;
    }
  }
}

/** Paging hints are advisory: a malformed `result_info` is dropped rather than failing the call. */
const ResultInfoWire = z.looseObject({
  page: z.number().optional(),
  per_page: z.number().optional(),
  count: z.number().optional(),
  total_count: z.number().optional(),
  // The API ends a cursor listing with `cursor: null`; callers see that as no cursor.
  cursor: z
    .string()
    .nullish()
    .transform((c) => c ?? undefined),
});

function resultInfoOf(value: unknown): ResultInfo | undefined {
  const parsed = ResultInfoWire.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

function redactHeader(value: string): string {
  const scheme = /^(\w+)\s/.exec(value)?.[1];
  return scheme ? `${scheme} [redacted]` : "[redacted]";
}

/** JSON unless the caller hands us multipart or bytes; re-sendable as is on every attempt. */
async function encodeBody(
  body: unknown,
): Promise<{ payload: string | Uint8Array; contentType?: string } | undefined> {
  if (body === undefined) return undefined;
  if (body instanceof FormData) {
    // Serialise once through the platform's encoder: undici refuses a FormData of another realm.
    const res = new Response(body);
    return {
      payload: new Uint8Array(await res.arrayBuffer()),
      contentType: res.headers.get("content-type") ?? undefined,
    };
  }
  if (body instanceof Uint8Array) return { payload: body, contentType: "application/octet-stream" };
  if (body instanceof ArrayBuffer)
    return { payload: new Uint8Array(body), contentType: "application/octet-stream" };
  if (tooDeep(body)) throw new ValidationError("request", [{ field: "body", rule: TOO_DEEP_RULE }]);
  return { payload: JSON.stringify(body), contentType: "application/json" };
}

function errorCodeOf(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; typeof e === "object" && e !== null && depth < 4; depth++) {
    const code = "code" in e ? e.code : undefined;
    if (typeof code === "string" && code !== "UND_ERR_ABORTED") return code;
    e = "cause" in e ? e.cause : undefined;
  }
  return undefined;
}

/** RFC 3986 encoding (`%20`, not `+`): not every server reads form-encoding in a query. */
function queryString(query: RequestSpec<unknown>["query"], path: string): string {
  if (!query) return "";
  const parts: string[] = [];
  const add = (k: string, v: unknown): void => {
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  };
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) add(key, v);
    else add(key, value);
  }
  if (!parts.length) return "";
  return (path.includes("?") ? "&" : "?") + parts.join("&");
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}
