import { describe, expect, it } from 'vitest';
import { combineGroupDistributions, groupOptions } from './hierarchical-groups.js';
import { labelChoiceOptions } from './labelled-outcome.js';

const options = (count: number) =>
  labelChoiceOptions(
    Array.from({ length: count }, (_, i) => [`o${i}`, null] as const),
    'numbers',
  );

describe('groupOptions', () => {
  it.each([
    [21, [11, 10]],
    [40, [20, 20]],
    [41, [14, 14, 13]],
    [255, [20, 20, 20, 20, 20, 20, 20, 20, 19, 19, 19, 19, 19]],
  ])('splits %i options into groups of ≤ 20 whose sizes differ by at most one', (count, sizes) => {
    const groups = groupOptions(options(count));
    expect(groups.map((group) => group.members.length)).toEqual(sizes);
    expect(groups.flatMap((group) => group.members)).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(groups.map((group) => group.label).join('')).toBe('ABCDEFGHIJKLM'.slice(0, sizes.length));
    for (const group of groups) {
      expect(group.options.map((option) => option.label)).toEqual(
        'ABCDEFGHIJKLMNOPQRST'.slice(0, group.members.length).split(''),
      );
    }
  });
});

describe('combineGroupDistributions', () => {
  it('multiplies group and within-group probabilities and weights the inner coverage', () => {
    const groups = groupOptions(options(22)); // 11 + 11
    const inner = (hot: number, coverage: number) => ({
      probabilities: Array.from({ length: 11 }, (_, i) => (i === hot ? 0.75 : i === 0 ? 0.25 : 0)),
      coverage,
    });
    const combined = combineGroupDistributions(22, groups, { probabilities: [0.4, 0.6], coverage: 0.9 }, [
      inner(3, 0.5),
      inner(7, 1),
    ]);
    expect(combined.probabilities[3]).toBeCloseTo(0.3, 12);
    expect(combined.probabilities[0]).toBeCloseTo(0.1, 12);
    expect(combined.probabilities[11 + 7]).toBeCloseTo(0.45, 12);
    expect(combined.probabilities[11]).toBeCloseTo(0.15, 12);
    expect(combined.probabilities.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 12);
    expect(combined.coverage).toBeCloseTo(0.9 * (0.4 * 0.5 + 0.6 * 1), 12);
  });
});
