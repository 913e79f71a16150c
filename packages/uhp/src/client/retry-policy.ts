import { type BackoffPolicy, backoffDelay } from '@arbiter/http-retry';
import { UhpApiError } from './uhp-api-error.js';
import { UhpConnectionError } from './uhp-connection-error.js';

/** How often and how patiently the client retries a request that may succeed next time. */
export interface RetryPolicy extends BackoffPolicy {
  /** A `Retry-After` longer than this is not waited for; the error is returned instead. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 250,
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
  return backoffDelay(policy, attempt + 1, random);
}
