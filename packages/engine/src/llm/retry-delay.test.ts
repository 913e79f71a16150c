import { describe, expect, it } from 'vitest';
import { isRetryableStatus, retryDelayMs } from './retry-delay.js';

describe('retryDelayMs', () => {
  it('follows Retry-After in seconds or as an HTTP date', () => {
    expect(retryDelayMs(0, '2')).toBe(2_000);
    expect(retryDelayMs(3, '0')).toBe(0);
    const now = Date.parse('2026-11-22T08:00:00Z');
    expect(retryDelayMs(0, 'Sun, 22 Nov 2026 08:00:05 GMT', now)).toBe(5_000);
    expect(retryDelayMs(0, 'Sun, 22 Nov 2026 07:59:00 GMT', now)).toBe(0);
  });

  it('backs off exponentially with jitter in the upper half when the server gives no hint', () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const ceiling = 100 * 2 ** attempt;
      for (let draw = 0; draw < 50; draw += 1) {
        const delay = retryDelayMs(attempt, attempt % 2 === 0 ? null : 'soon');
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThanOrEqual(ceiling);
      }
    }
  });

  it('retries rate limiting and transient server faults only', () => {
    expect([429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 413, 422, 501].some(isRetryableStatus)).toBe(false);
  });
});
