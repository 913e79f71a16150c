import { describe, expect, it } from 'vitest';
import { isRetryableAnswer, isRetryableStatus } from './retryable-status.js';

describe('isRetryableStatus', () => {
  it('retries rate limiting and transient server faults only', () => {
    expect([429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([200, 400, 401, 403, 404, 413, 422, 501].some(isRetryableStatus)).toBe(false);
  });
});

describe('isRetryableAnswer', () => {
  it("takes the server's flag over its status, both ways", () => {
    expect(isRetryableAnswer(502, false)).toBe(false);
    expect(isRetryableAnswer(429, false)).toBe(false);
    expect(isRetryableAnswer(409, true)).toBe(true);
    expect(isRetryableAnswer(501, true)).toBe(true);
  });

  it('falls back on the status rules when the server gives no flag', () => {
    for (const status of [400, 409, 429, 500, 501, 502, 503, 504])
      expect(isRetryableAnswer(status, undefined), String(status)).toBe(isRetryableStatus(status));
  });
});
