import { describe, expect, it } from 'vitest';
import { isRetryableStatus } from './retryable-status.js';

describe('isRetryableStatus', () => {
  it('retries rate limiting and transient server faults only', () => {
    expect([429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([200, 400, 401, 403, 404, 413, 422, 501].some(isRetryableStatus)).toBe(false);
  });
});
