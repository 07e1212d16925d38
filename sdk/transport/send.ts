/**
 * Sending: one pooled keep-alive undici dispatcher (undici itself loaded on the first request), the
 * attempt loop with its timeouts, aborts, retries and `Retry-After` hold, and the observer's events.
 * What comes back is the raw answer; reading it as the API's envelope is `envelope.ts`'s job.
 */
import type { Dispatcher } from "undici";
import type { CallOptions } from "../core";
import {
  AbortedError,
  type AccountApiError,
  ConnectionError,
  TimeoutError,
  ValidationError,
} from "../errors";
import { TOO_DEEP_RULE, tooDeep } from "../validate";
import { checkTimeout, type ClientSettings } from "./config";
import type { Redactor } from "./redaction";
import { Deadline, THROTTLED, parseRetryAfter, retryDelay, unlandedDelay, type RetryOptions } from "./retry";
import type { HttpMethod, RawResponse, TransportEvent } from "./types";

/** undici's own timers; reported as our TimeoutError. */
const TIMEOUT_ERROR_CODES: ReadonlySet<string> = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

export interface SendOptions extends CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  idempotent: boolean;
  /** Whether the token goes along (and the `Retry-After` hold, which is the token's, applies). */
  authorized: boolean;
  /** How errors name the path: the API path below the base URL, never the query. */
  displayPath?: string;
}

export class Sender {
  readonly #token: string;
  readonly #redactor: Redactor;
  readonly #userAgent: string;
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

  constructor(settings: ClientSettings, redactor: Redactor) {
    this.#token = settings.token;
    this.#redactor = redactor;
    this.#userAgent = settings.userAgent;
    this.#dispatcher = settings.dispatcher;
    this.#ownsDispatcher = !settings.dispatcher;
    this.#connections = settings.connections;
    this.#timeoutMs = settings.timeoutMs;
    this.#retry = settings.retry;
    this.#onEvent = settings.onEvent;
    this.#sleep = settings.sleep;
    this.#random = settings.random;
    this.#now = settings.now;
  }

  /** The clock (ms) on which `deadlineMs` and `Retry-After` dates are measured. */
  now(): number {
    return this.#now();
  }

  /** The pause before send number `sent + 1` of a create proved not to have landed (see `ApiClient`). */
  retryAfterUnlanded(sent: number, startedAt: number): number | undefined {
    const delay = unlandedDelay(this.#retry, sent, this.#random);
    return delay !== undefined && new Deadline(this.#retry, startedAt, this.#now).allows(delay)
      ? delay
      : undefined;
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

  /** The observer must never break a request, so what it throws is dropped. */
  #emit(event: TransportEvent): void {
    if (!this.#onEvent) return;
    try {
      this.#onEvent(event);
    } catch {
      // a failing logger is not the request's failure
    }
  }

  async send(method: HttpMethod, url: string, o: SendOptions): Promise<RawResponse> {
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
    const redact = (text: string): string => this.#redactor.text(text);
    const shownUrl = redact(url);
    const shownPath = redact(o.displayPath ?? pathname);
    const what = `${method} ${shownPath}`;
    const headers: Record<string, string> = {
      accept: "application/json",
      "user-agent": this.#userAgent,
      ...lowerKeys(o.headers ?? {}),
    };
    const encoded = await encodeBody(o.body);
    if (encoded?.contentType) headers["content-type"] ??= encoded.contentType;
    if (o.authorized) headers.authorization = `Bearer ${this.#token}`;
    const shownHeaders = this.#redactor.requestHeaders(headers);

    const deadline = new Deadline(this.#retry, this.#now(), this.#now);
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
        if (hold > 0 && hold <= this.#retry.maxRetryAfterMs && deadline.allows(hold))
          await this.wait(hold, o.signal, what);
      }
      this.#emit({ type: "request", method, url: shownUrl, attempt, headers: { ...shownHeaders } });
      const started = performance.now();
      const timeoutMs = deadline.cut(callTimeoutMs);
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
        const resHeaders = this.#redactor.headers(flattenHeaders(res.headers));
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
          failure.message = redact(failure.message);
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
        if (delay === undefined || !deadline.allows(delay)) return result;
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
        if (delay === undefined || !deadline.allows(delay)) throw error;
        reason = errorCode ? `${error.code} ${errorCode}` : error.code;
      }
      this.#emit({ type: "retry", method, url: shownUrl, attempt, delayMs: delay, reason });
      await this.wait(delay, o.signal, what);
    }
  }

  /** Sleeps between attempts; an abort while waiting is the caller's AbortedError, not the sleeper's. */
  async wait(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
    try {
      await this.#sleep(ms, signal);
    } catch (err) {
      if (signal?.aborted) throw new AbortedError(what, { cause: signal.reason });
      throw err;
    }
  }
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

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}
