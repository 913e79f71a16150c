import { describe, expect, it } from 'vitest';
import { claimPolarityOf } from './claim-polarity.js';

describe('claimPolarityOf', () => {
  it('finds explicit negation and the positive claim beneath it', () => {
    expect(claimPolarityOf('Is the meeting not on Tuesday?')).toEqual({
      positive: 'Is the meeting on Tuesday?',
      negated: true,
    });
    expect(claimPolarityOf("The build isn't failing")).toEqual({
      positive: 'The build is failing',
      negated: true,
    });
    expect(claimPolarityOf("It won't ship today").positive).toBe('It will ship today');
    expect(claimPolarityOf('He cannot swim').positive).toBe('He can swim');
  });

  it('cancels a double negation and leaves other negative words to the evidence', () => {
    expect(claimPolarityOf('It is not never late').negated).toBe(false);
    expect(claimPolarityOf('Does it run without errors?')).toEqual({
      positive: 'Does it run without errors?',
      negated: false,
    });
    // "nothing" and "notice" are not "not".
    expect(claimPolarityOf('Did anyone notice nothing?').negated).toBe(false);
  });
});
