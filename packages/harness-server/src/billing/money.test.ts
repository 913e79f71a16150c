import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAmount, parseAmount } from './money.js';

describe('amounts', () => {
  it('parses decimals digit by digit into nano-units', () => {
    expect(parseAmount('12.50')).toBe(12_500_000_000);
    expect(parseAmount('0.000000001')).toBe(1);
    expect(parseAmount(' 3 ')).toBe(3_000_000_000);
    for (const bad of ['-1', 'ten', '1.0000000001', '1e3', '', '.5', '1.', '1,5', '1000000'])
      expect(parseAmount(bad), bad).toBeNull();
  });

  it('formats without trailing zeros and round-trips every amount', () => {
    expect(formatAmount(12_500_000_000)).toBe('12.5');
    expect(formatAmount(-5_000_000_000)).toBe('-5');
    expect(formatAmount(15_000)).toBe('0.000015');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999_999_999 }), (nanos) => {
        expect(parseAmount(formatAmount(nanos))).toBe(nanos);
      }),
    );
  });
});
