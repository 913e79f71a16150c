/** How the client retries inside its time budget. */
export interface RetryPolicy {
  /** Further attempts after the first; 0 disables retries. */
  maxRetries: number;
  /** Cap of the first backoff window; it doubles per retry. */
  baseDelayMs: number;
  /** Largest backoff window. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1_000 };

/**
 * Exponential backoff with full jitter (a uniformly random wait in [0, window)): spreads the retries of
 * many clients hit by the same outage instead of having them return in lockstep.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const window = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * window);
}
