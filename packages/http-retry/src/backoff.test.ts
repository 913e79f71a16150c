import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  const policy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1_000 };

  it('doubles the window per retry up to the cap', () => {
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelay(policy, retry, () => 0.999_999))).toEqual([
      99, 199, 399, 799, 999,
    ]);
  });

  it('draws the wait uniformly from the window (full jitter)', () => {
    expect(backoffDelay(policy, 3, () => 0)).toBe(0);
    expect(backoffDelay(policy, 3, () => 0.5)).toBe(200);
  });
});
