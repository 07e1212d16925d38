/**
 * The one retry policy: which failures are worth another attempt, how long to wait before it (the
 * server's `Retry-After` first, else a jittered backoff), and how a call's deadline bounds both.
 */
import { backoff } from "../core";
import { ConfigurationError } from "../errors";
import type { HttpMethod } from "./types";

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

const DEFAULT_RETRY: Omit<RetryOptions, "maxThrottledRetries"> = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  deadlineMs: 0,
};

/** Methods that may be repeated without changing the outcome (RFC 9110 idempotent methods we use). */
export const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(["GET", "PUT", "PATCH", "DELETE"]);
/**
 * Statuses worth another attempt: request timeout, throttling, server trouble. 409 is left out on
 * purpose: in this API it is a business conflict (already exists), which a retry cannot fix. 501 and
 * 505 are left out as they will not change either.
 */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
/** Throttled: the server did nothing, so even a creating POST may go again. */
export const THROTTLED = 429;
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

/** The caller's retry options over the defaults, checked; `maxThrottledRetries` follows `maxRetries`. */
export function retryOptions(given: Partial<RetryOptions> | undefined): RetryOptions {
  const retry = { ...DEFAULT_RETRY, ...given };
  return checkRetry({ ...retry, maxThrottledRetries: retry.maxThrottledRetries ?? retry.maxRetries });
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

/**
 * One call's overall budget (`deadlineMs`; 0: none), measured on the client's clock from the call's
 * start: it ends the retries whose pause would outlast it and cuts each attempt's timeout to what is left.
 */
export class Deadline {
  readonly #budget: number;
  readonly #startedAt: number;
  readonly #now: () => number;

  constructor(options: RetryOptions, startedAt: number, now: () => number) {
    this.#budget = options.deadlineMs;
    this.#startedAt = startedAt;
    this.#now = now;
  }

  /** Whether a pause of `delay` from now still ends within the deadline. */
  allows(delay: number): boolean {
    return this.#budget === 0 || this.#now() - this.#startedAt + delay < this.#budget;
  }

  /** An attempt's timeout: the client's (or the call's), cut to what is left of the deadline. */
  cut(timeoutMs: number): number {
    if (this.#budget === 0) return timeoutMs;
    return Math.max(1, Math.min(timeoutMs, this.#budget - (this.#now() - this.#startedAt)));
  }
}

/**
 * The backoff before send number `sent + 1` of what only a caller can repeat (a create proved not to
 * have landed), or undefined once the retries are used up.
 */
export function unlandedDelay(options: RetryOptions, sent: number, random: () => number): number | undefined {
  if (sent > options.maxRetries) return undefined;
  return backoff(sent, { baseMs: options.baseDelayMs, capMs: options.maxDelayMs, random });
}
