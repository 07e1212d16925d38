/** The sdk retry options a provider session runs with, from its configuration. */
import type { RetryOptions } from "../sdk/transport/retry";
import type { ProviderConfig } from "./types";

/** The provider's retry policy when the configuration sets none: patient, yet bounded. */
export const DEFAULT_RETRY_POLICY = Object.freeze({ deadlineMs: 300_000, maxRetries: 8 });

/**
 * The sdk retry options of a provider session. Under a rate limit only the deadline ends a call: 429s
 * are not counted (their cap is out of reach) and any `Retry-After` that ends within the deadline is
 * waited, since the service counts per user over 5 minutes and may well ask for minutes. A step of an
 * `up` then waits its turn instead of failing where the next window would have let it through.
 */
export function retryPolicyFor(config: ProviderConfig): Partial<RetryOptions> {
  const deadlineMs = config.deadlineMs ?? DEFAULT_RETRY_POLICY.deadlineMs;
  return {
    deadlineMs,
    maxRetries: config.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    maxThrottledRetries: THROTTLED_RETRIES_UNCOUNTED,
    maxRetryAfterMs: deadlineMs,
  };
}

/** More 429s than fit in any deadline at the service's shortest `Retry-After` (1 s). */
const THROTTLED_RETRIES_UNCOUNTED = 1_000_000;
