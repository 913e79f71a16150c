import { describe, expect, it } from 'vitest';
import { normalisedEntropyConfidence } from './answer-confidence.js';

describe('normalisedEntropyConfidence', () => {
  it('is 0 for a uniform distribution and 1 for a certain one', () => {
    expect(normalisedEntropyConfidence([0.25, 0.25, 0.25, 0.25])).toBe(0);
    expect(normalisedEntropyConfidence([0, 1, 0])).toBe(1);
    expect(normalisedEntropyConfidence([1])).toBe(1);
  });

  it('is one minus entropy over ln n in between', () => {
    const p = [0.8, 0.2];
    const entropy = -(0.8 * Math.log(0.8) + 0.2 * Math.log(0.2));
    expect(normalisedEntropyConfidence(p)).toBeCloseTo(1 - entropy / Math.log(2), 12);
  });
});
