import { describe, expect, it } from 'vitest';
import { backoffDelay } from './retry-policy.js';

describe('backoffDelay', () => {
  const policy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1_000 };

  it('draws uniformly below a window that doubles per retry up to the cap (full jitter)', () => {
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelay(policy, retry, () => 0.999_999))).toEqual([
      99, 199, 399, 799, 999,
    ]);
    expect(backoffDelay(policy, 3, () => 0)).toBe(0);
    expect(backoffDelay(policy, 3, () => 0.5)).toBe(200);
  });
});
