import { describe, expect, it } from 'vitest';
import { estimateContextTokens, estimateTokens } from './token-estimate.js';

describe('estimateTokens', () => {
  it('counts ceil(UTF-8 bytes / 3) of text or compact JSON', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(2);
    expect(estimateTokens('é')).toBe(1); // two bytes
    expect(estimateTokens('😀😀')).toBe(3); // eight bytes
    expect(estimateTokens({ a: 1 })).toBe(3); // {"a":1}
  });

  it('counts the state plus the longest question for the context check', () => {
    const short = { type: 'noul', instructions: 'x' } as const;
    const long = { type: 'noul', instructions: 'x'.repeat(300) } as const;
    expect(estimateContextTokens('abc', { short, long })).toBe(1 + estimateTokens(long));
  });
});
