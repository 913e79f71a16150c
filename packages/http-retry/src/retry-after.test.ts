import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './retry-after.js';

const now = Date.parse('2025-06-01T12:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delay-seconds, fractions included, as milliseconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('1.5', now)).toBe(1_500);
    expect(parseRetryAfter('0.0004', now)).toBe(0);
  });

  it('reads the three HTTP-date forms as the time left until then, and a past date as 0', () => {
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:03 GMT', now)).toBe(3_000);
    expect(parseRetryAfter('Sunday, 01-Jun-25 12:00:04 GMT', now)).toBe(4_000);
    expect(parseRetryAfter('Sun Jun  1 12:00:05 2025', now)).toBe(5_000);
    expect(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(0);
  });

  it('refuses what is neither, and an absent header', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter('1e3', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('2025-06-01T12:00:03Z', now)).toBeUndefined();
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:03 +0200', now)).toBeUndefined();
  });
});
