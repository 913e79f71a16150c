/**
 * Statuses worth another attempt: rate limiting and transient faults of the server or a gateway before
 * it. 501 (not implemented) and every other 4xx will answer the same again.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

/**
 * Whether a failed answer is worth another attempt. A server that keeps an error registry knows
 * better than its status: its envelope's `retryable` flag (a 502 `engine_error` fails the same way
 * again; a 409 lock may clear) is taken as said. Without the flag (another server, a proxy's page)
 * the status decides, as `isRetryableStatus` says.
 */
export function isRetryableAnswer(status: number, retryable: boolean | undefined): boolean {
  return retryable ?? isRetryableStatus(status);
}
