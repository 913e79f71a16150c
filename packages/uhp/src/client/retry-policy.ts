import { UhpApiError } from './uhp-api-error.js';
import { UhpConnectionError } from './uhp-connection-error.js';

/** How often and how patiently the client retries a request that may succeed next time. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  readonly maxRetries: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for; the error is returned instead. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  initialDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/**
 * Whether `error` after `attempt` earlier retries deserves another try, and after how long; `null` means
 * give up. Server errors back off exponentially with full jitter (so a fleet of clients does not retry in
 * lock-step); `rate_limited` waits what `Retry-After` says; client errors are never retried.
 */
export function nextRetryDelay(
  policy: RetryPolicy,
  attempt: number,
  error: unknown,
  random: () => number = Math.random,
): number | null {
  if (attempt >= policy.maxRetries) return null;
  const retryable =
    (UhpApiError.isInstance(error) && error.isRetryable) || UhpConnectionError.isInstance(error);
  if (!retryable) return null;
  const retryAfterMs = UhpApiError.isInstance(error) ? error.retryAfterMs : null;
  if (retryAfterMs !== null) return retryAfterMs <= policy.maxRetryAfterMs ? retryAfterMs : null;
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** attempt);
  return Math.round(random() * ceiling);
}
