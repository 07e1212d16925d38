/**
 * The shapes every area shares, written once: call options, the clock, the backoff, the poll loop,
 * "create once" and "404 means gone". Areas describe what to read, when it is settled and how to find
 * what they made; the loops and their rules live here.
 */
import {
  AbortedError,
  ApiError,
  ConflictError,
  ConnectionError,
  DeadlineExceededError,
  NotFoundError,
  TimeoutError,
} from "./errors";
import { abortableSleep } from "./sleep";

export type { Paged } from "./paging";

/** Per call: the caller's cancel signal and a per-attempt timeout overriding the client's. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Time as a wait sees it; tests inject one that advances without sleeping. */
export interface Clock {
  /** Milliseconds on any monotonic-enough scale; only differences are used. */
  now(): number;
  /** Resolves after `ms`; rejects once `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now(), sleep: abortableSleep };

export interface WaitOptions extends CallOptions {
  /** Give up with DeadlineExceededError after this long, measured on the clock. */
  deadlineMs?: number;
  /** First pause between polls. */
  pollIntervalMs?: number;
  /** Longest pause between polls. */
  maxPollIntervalMs?: number;
  clock?: Clock;
  /** One half of the clock on its own (the older injection); wins over `clock.sleep`. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** One half of the clock on its own (the older injection); wins over `clock.now`. */
  now?: () => number;
}

export interface BackoffOptions {
  /** The first step's delay. */
  baseMs: number;
  /** Cap on one step, before jitter. */
  capMs: number;
  /** Growth per step (default 2). */
  factor?: number;
  /**
   * Jitter source in [0, 1). With one, the delay is spread uniformly over the step's upper half
   * ("equal jitter": clients spread out, yet each wait still grows); without one it is the step itself,
   * which is what a poll wants (deterministic, and there is no herd of pollers to spread).
   */
  random?: () => number;
}

/** The delay before try number `step + 1`: `base * factor^(step-1)`, capped, with optional jitter. */
export function backoff(step: number, o: BackoffOptions): number {
  const full = Math.min(o.capMs, o.baseMs * (o.factor ?? 2) ** Math.max(0, step - 1));
  if (!o.random) return Math.ceil(full);
  const jitter = Math.min(1, Math.max(0, o.random()));
  return Math.round(full / 2 + (full / 2) * jitter);
}

export interface PollProgress {
  /** Time spent waiting so far, on the wait's clock. */
  elapsedMs: number;
  /** Reads made so far (1 after the first). */
  polls: number;
}

export interface PollOptions<T> extends WaitOptions {
  /** Growth of the pause per poll (default 2). */
  factor?: number;
  /** Called with every value read, before `settle` looks at it. */
  onProgress?: (value: T, progress: PollProgress) => void;
  /** The "last state" a DeadlineExceededError names. */
  describe?: (value: T) => string;
}

const DEFAULT_DEADLINE_MS = 30 * 60_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;
const DEFAULT_MAX_POLL_INTERVAL_MS = 15_000;

/**
 * Reads until `settle` returns a value (or throws), pausing with backoff between reads. The first read
 * happens at once; the deadline is checked after each unsettled read and the last pause is cut to
 * the time left, so a wait ends on its deadline rather than one long pause after it. An abort before
 * a read or during a pause is an AbortedError naming `what`.
 */
export async function pollUntil<T, R>(
  what: string,
  read: (options: CallOptions) => Promise<T>,
  settle: (value: T) => R | undefined,
  options: PollOptions<T> = {},
): Promise<R> {
  const now = options.now ?? options.clock?.now.bind(options.clock) ?? systemClock.now;
  const sleep = options.sleep ?? options.clock?.sleep.bind(options.clock) ?? systemClock.sleep;
  const { signal } = options;
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const capMs = options.maxPollIntervalMs ?? DEFAULT_MAX_POLL_INTERVAL_MS;
  const baseMs = Math.min(options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, capMs);
  const call = callOptions(options);
  const aborted = (): AbortedError => new AbortedError(`waiting for ${what}`, { cause: signal?.reason });
  const started = now();
  for (let polls = 1; ; polls++) {
    if (signal?.aborted) throw aborted();
    const value = await read(call);
    const elapsedMs = now() - started;
    options.onProgress?.(value, { elapsedMs, polls });
    const settled = settle(value);
    if (settled !== undefined) return settled;
    const left = deadlineMs - elapsedMs;
    if (left <= 0)
      throw new DeadlineExceededError(what, deadlineMs, options.describe?.(value) ?? "unsettled");
    const pause = backoff(polls, { baseMs, capMs, ...(options.factor ? { factor: options.factor } : {}) });
    try {
      await sleep(Math.min(pause, left), signal);
    } catch (err) {
      // The sleeper's own abort error does not say what was being waited for.
      if (signal?.aborted) throw aborted();
      throw err;
    }
  }
}

/** Just the per-request part of a wider options object, so reads do not carry the wait's fields. */
export function callOptions(o: CallOptions): CallOptions {
  return {
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
  };
}

/** Gateway and server answers after which the request may still have been carried out. */
const MAY_HAVE_LANDED_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);

/**
 * Whether a failed create may nevertheless have happened: no answer came (connection lost, timeout),
 * or a server error answered for a service that may have acted before failing.
 */
export function mayHaveLanded(err: unknown): boolean {
  if (err instanceof ConnectionError || err instanceof TimeoutError) return true;
  return err instanceof ApiError && MAY_HAVE_LANDED_STATUSES.has(err.status);
}

export interface CreateOnceOptions {
  /** Further POSTs, each only after a lookup proved the previous one did not land (default 0). */
  retries?: number;
}

/**
 * POSTs a create without ever making two. When the outcome is unknown (`mayHaveLanded`), `find`
 * looks the object up by its natural key: found means the attempt landed and is returned; not found
 * means the error stands, or, with `retries` left, the POST is sent again. A conflict answering such a
 * repeat is the earlier attempt having landed late, so it is looked up too. When the lookup itself
 * fails the outcome stays unknown and the create's error is thrown.
 */
export async function createOnce<T>(
  post: () => Promise<T>,
  find: () => Promise<T | undefined>,
  options: CreateOnceOptions = {},
): Promise<T> {
  const retries = options.retries ?? 0;
  for (let attempt = 0; ; attempt++) {
    try {
      return await post();
    } catch (err) {
      const landedLate = attempt > 0 && err instanceof ConflictError;
      if (!landedLate && !mayHaveLanded(err)) throw err;
      let found: T | undefined;
      try {
        found = await find();
      } catch (lookupErr) {
        throw lookupErr instanceof AbortedError ? lookupErr : err;
      }
      if (found !== undefined) return found;
      if (landedLate || attempt >= retries) throw err;
    }
  }
}

/** A read where 404 means "gone": NotFoundError becomes undefined, every other error is thrown. */
export async function orGone<T>(pending: Promise<T>): Promise<T | undefined> {
  try {
    return await pending;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}
