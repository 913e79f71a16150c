import { describe, expect, it } from 'vitest';
import { applyMonotoneMap, fitMonotoneMap, type YesNoSample } from './monotone-map.js';

/** `count` answers of raw probability `probability`, `yes` of them right to say yes. */
function answers(probability: number, count: number, yes: number): YesNoSample[] {
  return Array.from({ length: count }, (_, index) => ({ probability, yes: index < yes }));
}

describe('fitMonotoneMap', () => {
  it('moves answers that sit on the wrong side of one half to their rate, which no temperature can', () => {
    // Judged 0.3 and right to say no only half the time; judged 0.45 and yes 80% of the time.
    const map = fitMonotoneMap([...answers(0.3, 100, 50), ...answers(0.45, 100, 80)], { priorWeight: 0 });
    expect(map).toEqual([
      [0.3, 0.5],
      [0.45, 0.8],
    ]);
  });

  it('pools evidence whose accuracy does not rise with its strength into one stretch near its rate', () => {
    // Stronger evidence (0.9) is right less often than weaker (0.7): not monotone, so pooled.
    const map = fitMonotoneMap([...answers(0.7, 50, 40), ...answers(0.9, 50, 30)], { priorWeight: 0 });
    expect(map).toEqual([[0.8, 0.7]]);
    expect(applyMonotoneMap(map, 0.99)).toBe(0.7);
    expect(applyMonotoneMap(map, 0.6)).toBe(0.7);
  });

  it('shrinks a rate from few answers towards one half', () => {
    const [[, calibrated]] = fitMonotoneMap(answers(0.95, 10, 10), { priorWeight: 10 }) as [[number, number]];
    expect(calibrated).toBe(0.75);
  });

  it('never splits answers a hair apart, so bounded evidence is not ordered by noise', () => {
    const samples = [
      ...answers(0.3, 30, 0).map((sample, index) => ({ ...sample, probability: 0.3 + index * 1e-5 })),
      ...answers(0.3001, 30, 30),
    ];
    expect(fitMonotoneMap(samples, { binSize: 20, priorWeight: 0 })).toEqual([[0.3001, 0.5]]);
  });

  it('only softens when told not to sharpen: each answer between its raw value and one half', () => {
    const samples = [...answers(0.1, 50, 25), ...answers(0.6, 50, 45)];
    const map = fitMonotoneMap(samples, { priorWeight: 0, sharpen: false });
    // 0.1 right half the time goes to one half; 0.6 right 90% stays 0.6, not sharpened to 0.9.
    expect(map).toEqual([
      [0.1, 0.5],
      [0.6, 0.6],
    ]);
  });

  it('refuses to fit nothing', () => {
    expect(() => fitMonotoneMap([])).toThrow(/at least one labelled sample/);
  });
});

describe('applyMonotoneMap', () => {
  it('joins knots by straight lines and is flat beyond the first and last', () => {
    const map = [
      [0.2, 0.3],
      [0.6, 0.7],
    ] as const;
    expect(applyMonotoneMap(map, 0.4)).toBeCloseTo(0.5, 12);
    expect(applyMonotoneMap(map, 0)).toBe(0.3);
    expect(applyMonotoneMap(map, 1)).toBe(0.7);
  });
});
