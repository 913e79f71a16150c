/**
 * Statuses worth another attempt: rate limiting and transient faults of the server or a gateway before
 * it. 501 (not implemented) and every other 4xx will answer the same again.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}
