import { describe, expect, it } from 'vitest';
import { applyTemperature } from '../temperature-scaling.js';
import { calibrationMetrics } from './calibration-metrics.js';
import type { CalibrationSample } from './calibration-sample.js';
import { calibrateSamples } from './engine-calibration.js';
import { fitTemperature, temperatureLogLoss } from './temperature-fit.js';

/** Deterministic PRNG (mulberry32) so the synthetic data, and the test, are the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function softmax(logits: readonly number[]): number[] {
  const peak = Math.max(...logits);
  const exps = logits.map((logit) => Math.exp(logit - peak));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => value / total);
}

/**
 * Outcomes drawn from softmax(z) while the "model" reports softmax(z / T0). Scaling its reports,
 * q ∝ p^(1/T) = softmax(z / (T0 · T)), recovers the truth exactly at T = 1 / T0: the temperature to find.
 */
function syntheticSamples(
  count: number,
  outcomes: number,
  reportTemperature: number,
  seed: number,
): CalibrationSample[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const logits = Array.from({ length: outcomes }, () => (next() - 0.5) * 6);
    const truth = softmax(logits);
    let draw = next();
    let expected = 0;
    while (expected < outcomes - 1 && draw >= truth[expected]!) draw -= truth[expected++]!;
    return { probabilities: softmax(logits.map((logit) => logit / reportTemperature)), expected };
  });
}

describe('temperature fitting', () => {
  it('recovers a known temperature from an overconfident model', () => {
    const samples = syntheticSamples(6_000, 4, 0.5, 7); // reports twice as sharp as the truth
    expect(fitTemperature(samples)).toBeCloseTo(2, 1);
  });

  it('recovers a known temperature from an underconfident binary model', () => {
    const samples = syntheticSamples(6_000, 2, 2.5, 11);
    expect(fitTemperature(samples)).toBeCloseTo(0.4, 1);
  });

  it('lands on the minimum of the log loss', () => {
    const samples = syntheticSamples(500, 3, 0.7, 3);
    const best = fitTemperature(samples);
    const atBest = temperatureLogLoss(samples, best);
    expect(atBest).toBeLessThanOrEqual(temperatureLogLoss(samples, best * 1.01));
    expect(atBest).toBeLessThanOrEqual(temperatureLogLoss(samples, best / 1.01));
  });

  it('refuses to fit without data', () => {
    expect(() => fitTemperature([])).toThrow(/at least one/);
  });
});

describe('calibration metrics', () => {
  it('computes ECE, Brier and log loss exactly on a small set', () => {
    const samples: CalibrationSample[] = [
      { probabilities: [0.9, 0.1], expected: 0 },
      { probabilities: [0.9, 0.1], expected: 1 },
      { probabilities: [0.3, 0.7], expected: 1 },
      { probabilities: [0.55, 0.45], expected: 0 },
    ];
    const metrics = calibrationMetrics(samples);
    // bins: 0.9 → {0.9, 0.9} accuracy 0.5; 0.7 → accuracy 1; 0.55 → accuracy 1
    expect(metrics.ece).toBeCloseTo((2 / 4) * 0.4 + (1 / 4) * 0.3 + (1 / 4) * 0.45, 12);
    expect(metrics.brier).toBeCloseTo((2 * 0.01 + 2 * 0.81 + 2 * 0.09 + 2 * 0.2025) / 4, 12);
    expect(metrics.logLoss).toBeCloseTo(
      -(Math.log(0.9) + Math.log(0.1) + Math.log(0.7) + Math.log(0.55)) / 4,
      12,
    );
    expect(metrics.bins[9]).toMatchObject({ count: 2, accuracy: 0.5 });
  });

  it('improves ECE and Brier on miscalibrated data after fitting, per question type', () => {
    const choice = syntheticSamples(3_000, 5, 0.4, 5).map((sample) => ({
      ...sample,
      type: 'choice' as const,
    }));
    const noul = syntheticSamples(3_000, 2, 0.5, 9).map((sample) => ({ ...sample, type: 'noul' as const }));
    const report = calibrateSamples([...choice, ...noul]);
    expect(report.byType.map((entry) => entry.type)).toEqual(['noul', 'choice']);
    for (const entry of report.byType) {
      expect(entry.after.ece).toBeLessThan(entry.before.ece / 2);
      expect(entry.after.brier).toBeLessThan(entry.before.brier);
    }
    expect(report.calibration.choice?.temperature).toBeCloseTo(2.5, 0);
    expect(report.calibration.score).toBeUndefined();
  });

  it('temperature scaling is the identity at T = 1 and keeps zeros', () => {
    expect(applyTemperature([0.2, 0.8], 1)).toEqual([0.2, 0.8]);
    const scaled = applyTemperature([0, 0.25, 0.75], 0.5);
    expect(scaled[0]).toBe(0);
    expect(scaled[1]).toBeCloseTo(0.0625 / (0.0625 + 0.5625), 12);
  });
});
