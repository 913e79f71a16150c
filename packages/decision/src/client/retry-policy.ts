import type { BackoffPolicy } from '@arbiter/http-retry';

/** How the client retries inside its time budget: backoff with full jitter from `@arbiter/http-retry`. */
export type RetryPolicy = BackoffPolicy;

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1_000 };
