/** How a client backs off between attempts inside its own budget. */
export interface BackoffPolicy {
  /** Further attempts after the first; 0 disables retries. */
  readonly maxRetries: number;
  /** Cap of the first backoff window; it doubles per retry. */
  readonly baseDelayMs: number;
  /** Largest backoff window. */
  readonly maxDelayMs: number;
}

/**
 * The wait before retry number `retry` (1 for the first retry): exponential backoff with full jitter, a
 * uniformly random wait in [0, window). Full jitter spreads the retries of many clients hit by the same
 * outage instead of having them return in lockstep (AWS Architecture Blog, "Exponential Backoff And Jitter").
 */
export function backoffDelay(
  policy: BackoffPolicy,
  retry: number,
  random: () => number = Math.random,
): number {
  const window = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * window);
}
