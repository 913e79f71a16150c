import { describe, expect, it } from 'vitest';
import { canonicalLabelSpelling, readLabelDistribution } from './label-distribution.js';

describe('label spellings', () => {
  it.each([
    ['yes', 'yes'],
    [' Yes', 'yes'],
    ['YES\n', 'yes'],
    ['\u0120Yes', 'yes'],
    ['\u2581yes', 'yes'],
    ['\u010aB', 'b'],
    ['Yes.', 'yes.'],
    ['yes!', 'yes!'],
  ])('%j reads as %j', (token, spelling) => {
    expect(canonicalLabelSpelling(token)).toBe(spelling);
  });
});

describe('readLabelDistribution', () => {
  it('keeps label order, sums variants, and reports the label mass as coverage', () => {
    const top = [
      { token: 'B', logprob: Math.log(0.3) },
      { token: ' b', logprob: Math.log(0.1) },
      { token: 'A', logprob: Math.log(0.2) },
      { token: 'A.', logprob: Math.log(0.25) },
      { token: 'Z', logprob: Math.log(0.15) },
    ];
    const { probabilities, coverage } = readLabelDistribution(top, ['A', 'B', 'C']);
    expect(coverage).toBeCloseTo(0.6, 12);
    expect(probabilities[0]).toBeCloseTo(0.2 / 0.6, 12);
    expect(probabilities[1]).toBeCloseTo(0.4 / 0.6, 12);
    expect(probabilities[2]).toBe(0);
  });

  it('reports zero coverage and no distribution when no label was seen', () => {
    expect(readLabelDistribution([{ token: 'Sure', logprob: -0.1 }], ['yes', 'no'])).toEqual({
      probabilities: [0, 0],
      coverage: 0,
    });
  });
});
