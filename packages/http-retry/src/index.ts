export { type BackoffPolicy, backoffDelay } from './backoff.js';
export { parseRetryAfter } from './retry-after.js';
export { isRetryableStatus } from './retryable-status.js';
