/** Statuses worth another attempt: rate limiting and transient server faults. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

/**
 * Milliseconds to wait before retry number `attempt` (0-based): the server's `Retry-After` (seconds or an
 * HTTP date) when present, otherwise exponential backoff from 100 ms with jitter over its upper half, so
 * concurrent questions that failed together do not retry in lockstep.
 */
export function retryDelayMs(attempt: number, retryAfter: string | null, now = Date.now()): number {
  if (retryAfter !== null) {
    const trimmed = retryAfter.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
    const date = Date.parse(trimmed);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const ceiling = 100 * 2 ** attempt;
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}
