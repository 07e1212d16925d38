/**
 * The public service's global API rate limit: at most `requests` requests per `windowMs` per caller
 * (the raw Authorization header; requests without one share a key). Over it the server answers 429,
 * code 971, with `Retry-After` in whole seconds until the caller's window frees.
 *
 * A fixed window, not a sliding one: the `Retry-After` a refused caller hears is then one moment for
 * every request it makes in that window, exactly when the window frees, so a client that honours it
 * succeeds on its next try and a test can predict the value; a sliding log would keep up to `requests`
 * timestamps per caller (1,200 on the service) for a precision the emulator does not need. The cost,
 * up to twice the limit across a window's edge, is the client's gain and never hides a 429.
 */
import { z } from "zod";
import { describeIssues } from "../sdk/validate";

export const RateLimitSchema = z.strictObject({
  requests: z.number().int("must be a whole number").min(1, "must be at least 1"),
  windowMs: z.number().int("must be a whole number").min(1, "must be at least 1"),
});
export type RateLimit = z.infer<typeof RateLimitSchema>;

/** The code and message the service sends with its 429. */
export const RATE_LIMITED = {
  code: 971,
  message: "Please wait and consider throttling your request speed",
} as const;

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Windows whose end passed are forgotten once the map holds more callers than this. */
const SWEEP_ABOVE = 1_000;

export class RateLimiter {
  readonly limit: RateLimit;
  readonly #now: () => number;
  /** Per caller: when its window started and how many requests it let through. */
  readonly #windows = new Map<string, { start: number; count: number }>();

  /** Throws naming the field (`rateLimit.requests: must be at least 1`) when a limit is not valid. */
  constructor(limit: RateLimit, now: () => number = Date.now) {
    const parsed = RateLimitSchema.safeParse(limit);
    if (!parsed.success)
      throw new Error(
        describeIssues(parsed.error)
          .map((i) => `rateLimit${i.field ? `.${i.field}` : ""}: ${i.rule}`)
          .join("; "),
      );
    this.limit = parsed.data;
    this.#now = now;
  }

  /** Counts one request of `key`, or refuses it with the whole seconds until its window frees (≥ 1). */
  decide(key: string): RateDecision {
    const now = this.#now();
    let w = this.#windows.get(key);
    if (!w || now >= w.start + this.limit.windowMs) {
      if (!w && this.#windows.size >= SWEEP_ABOVE) this.#sweep(now);
      w = { start: now, count: 0 };
      this.#windows.set(key, w);
    }
    if (w.count < this.limit.requests) {
      w.count++;
      return { allowed: true };
    }
    const waitMs = w.start + this.limit.windowMs - now;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  #sweep(now: number): void {
    for (const [key, w] of this.#windows) if (now >= w.start + this.limit.windowMs) this.#windows.delete(key);
  }
}
