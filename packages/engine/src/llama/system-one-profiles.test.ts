import { describe, expect, it } from 'vitest';
import { LABEL_TOKEN_DECISION_TYPES, temperatureFor } from './system-one-profiles.js';

const temperatures = new Map([
  ['choice.small', 2],
  ['choice.large', 3],
  ['choice', 1.5],
  ['noul.2', 0.5],
]);

describe('temperatureFor', () => {
  it('reads the size buckets of lev: small up to 8 options, mid up to 26, large above', () => {
    const lev = LABEL_TOKEN_DECISION_TYPES.lev!;
    expect(temperatureFor(temperatures, lev, 'choice', 8)).toBe(2);
    expect(temperatureFor(temperatures, lev, 'choice', 9)).toBe(1.5);
    expect(temperatureFor(temperatures, lev, 'choice', 27)).toBe(3);
  });

  it('reads the count buckets of the other types, then the type alone, then 1', () => {
    const openjev = LABEL_TOKEN_DECISION_TYPES.openjev!;
    expect(temperatureFor(temperatures, openjev, 'noul', 2)).toBe(0.5);
    expect(temperatureFor(temperatures, openjev, 'choice', 4)).toBe(1.5);
    expect(temperatureFor(temperatures, openjev, 'score', 4)).toBe(1);
  });
});
