export { type BackoffPolicy, backoffDelay } from './backoff.js';
export { parseRetryAfter } from './retry-after.js';
export { isRetryableAnswer, isRetryableStatus } from './retryable-status.js';
