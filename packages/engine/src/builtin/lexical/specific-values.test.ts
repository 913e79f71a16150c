import { describe, expect, it } from 'vitest';
import { compareValues, specificValuesOf } from './specific-values.js';

describe('specific values', () => {
  it('reads numbers, days and months, spelled or in digits', () => {
    const values = specificValuesOf('Three tickets for Friday 12 March, not in may');
    expect(values.get('number')).toEqual(new Set(['3', '12']));
    expect(values.get('weekday')).toEqual(new Set(['friday']));
    // "may" in lower case is the verb as often as the month.
    expect(values.get('month')).toEqual(new Set(['march']));
  });

  it('a value of a kind the text names otherwise is a mismatch; one it names is a match', () => {
    expect(compareValues('Is the meeting on Friday?', 'The meeting is on Tuesday')).toEqual({
      matched: [],
      mismatched: [['friday', 'tuesday']],
    });
    expect(compareValues('Is it on Tuesday?', 'The meeting is on Tuesday').matched).toEqual(['tuesday']);
    // The text names no day at all: no evidence either way.
    expect(compareValues('Is it on Friday?', 'The meeting was moved')).toEqual({
      matched: [],
      mismatched: [],
    });
  });
});
