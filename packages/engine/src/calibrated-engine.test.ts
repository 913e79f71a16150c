import type { Answer, DecisionEngine, EvaluateOptions } from '@arbiter/decision';
import { describe, expect, it } from 'vitest';
import {
  calibrateAnswer,
  engineCalibrationSchema,
  isIdentity,
  temperatureOf,
  withCalibration,
} from './calibrated-engine.js';

const choice: Answer = {
  type: 'choice',
  choice: 'a',
  confidence: 0.5,
  probabilities: { a: 0.7, b: 0.2, c: 0.1 },
  arbiter: { engine: 'test', abstained: false, coverage: 0.5 },
};

describe('calibrateAnswer', () => {
  it('softens above one and sharpens below, keeping the order of the outcomes', () => {
    const soft = calibrateAnswer(choice, { choice: { temperature: 2 } });
    const sharp = calibrateAnswer(choice, { choice: { temperature: 0.5 } });
    if (soft.type !== 'choice' || sharp.type !== 'choice') throw new Error('not a choice');
    expect(soft.probabilities.a).toBeLessThan(0.7);
    expect(sharp.probabilities.a).toBeGreaterThan(0.7);
    for (const answer of [soft, sharp]) {
      expect(answer.choice).toBe('a');
      expect(answer.probabilities.a).toBeGreaterThan(answer.probabilities.b!);
      expect(answer.probabilities.b).toBeGreaterThan(answer.probabilities.c!);
      expect(Object.values(answer.probabilities).reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 12);
    }
    // Confidence keeps the model engine's coverage discount.
    expect(soft.confidence).toBeLessThanOrEqual(0.5);
  });

  it('moves a Noul towards 0.5 above one, and recomputes a Score from its levels', () => {
    const noul = calibrateAnswer({ type: 'noul', noul: 0.98 }, { noul: { temperature: 3 } });
    expect(noul.type === 'noul' && noul.noul).toBeGreaterThan(0.5);
    expect(noul.type === 'noul' && noul.noul).toBeLessThan(0.9);
    const score = calibrateAnswer(
      {
        type: 'score',
        score: 1.8,
        confidence: 0.6,
        probabilities: { '0': 0.1, '1': 0, '2': 0.9 },
        legend: {},
      },
      { score: { temperature: 2 } },
    );
    if (score.type !== 'score') throw new Error('not a score');
    expect(score.probabilities['1']).toBe(0);
    expect(score.score).toBeCloseTo(2 * score.probabilities['2']!, 12);
    expect(score.score).toBeLessThan(1.8);
  });

  it('leaves answers of a type without a temperature as they are', () => {
    expect(calibrateAnswer(choice, { noul: { temperature: 2 } })).toBe(choice);
  });

  it("takes the temperature of the answer's evidence kind before its type's", () => {
    const topical: Answer = {
      type: 'noul',
      noul: 0.9,
      arbiter: { engine: 'test', abstained: false, evidence: ['near:spam~free'] },
    };
    const calibration = { noul: { temperature: 0.5 }, evidence: { 'noul:topical': { temperature: 3 } } };
    expect(temperatureOf(topical, calibration)).toBe(3);
    const soft = calibrateAnswer(topical, calibration);
    expect(soft.type === 'noul' && soft.noul).toBeCloseTo(
      0.9 ** (1 / 3) / (0.9 ** (1 / 3) + 0.1 ** (1 / 3)),
      12,
    );
    // Another kind, or none, falls back to the type's temperature; a kind named like a prototype
    // member is no kind.
    const valence = { ...topical, arbiter: { ...topical.arbiter!, evidence: ['valence:0.5'] } };
    expect(temperatureOf(valence, calibration)).toBe(0.5);
    expect(temperatureOf({ type: 'noul', noul: 0.9 }, calibration)).toBe(0.5);
    expect(
      temperatureOf({ ...topical, arbiter: { ...topical.arbiter!, evidence: ['toString'] } }, calibration),
    ).toBe(0.5);
  });

  it("gives a Choice its type's temperature whatever its evidence, so removing an option keeps proportions", () => {
    const tone: Answer = {
      ...choice,
      arbiter: { engine: 'test', abstained: false, evidence: ['valence:0.5'] },
    };
    const calibration = { choice: { temperature: 2 }, evidence: { 'choice:valence': { temperature: 5 } } };
    expect(temperatureOf(tone, calibration)).toBe(2);
  });

  it("gives a Choice its question kind's temperature, never its evidence kind's", () => {
    const calibration = {
      choice: { temperature: 2 },
      evidence: { 'choice:feeling': { temperature: 3 }, 'choice:topical': { temperature: 5 } },
    };
    const topical: Answer = {
      ...choice,
      arbiter: { engine: 'test', abstained: false, evidence: ['near:a~b'] },
    };
    expect(temperatureOf(topical, calibration, 'choice:feeling')).toBe(3);
    expect(temperatureOf(topical, calibration)).toBe(2);
    // Removing an option keeps the others' proportions: one temperature for the whole question.
    const all = calibrateAnswer(topical, calibration, 'choice:feeling');
    const fewer = calibrateAnswer(
      { ...topical, probabilities: { a: 0.7 / 0.9, b: 0.2 / 0.9 } },
      calibration,
      'choice:feeling',
    );
    if (all.type !== 'choice' || fewer.type !== 'choice') throw new Error('expected Choices');
    expect(all.probabilities.a! / all.probabilities.b!).toBeCloseTo(
      fewer.probabilities.a! / fewer.probabilities.b!,
      12,
    );
  });

  it("takes a Noul through its kind's monotone map, and leaves a Score of that kind to its type", () => {
    const calibration = {
      score: { temperature: 2 },
      evidence: {
        'noul:topical': {
          map: [
            [0.3, 0.45],
            [0.5, 0.7],
          ] as [number, number][],
        },
        'score:topical': {
          map: [
            [0.3, 0.45],
            [0.5, 0.7],
          ] as [number, number][],
        },
      },
    };
    const topical: Answer = {
      type: 'noul',
      noul: 0.4,
      arbiter: { engine: 'test', abstained: false, evidence: ['near:spam~free'] },
    };
    const mapped = calibrateAnswer(topical, calibration);
    expect(mapped.type === 'noul' && mapped.noul).toBeCloseTo(0.575, 12);
    expect(temperatureOf(topical, calibration)).toBe(1);
    const score: Answer = {
      type: 'score',
      score: 0.2,
      confidence: 0.3,
      probabilities: { 0: 0.8, 1: 0.2 },
      legend: { 0: 'no', 1: 'yes' },
      arbiter: { engine: 'test', abstained: false, evidence: ['term:a'] },
    };
    expect(temperatureOf(score, calibration)).toBe(2);
  });

  it('scales an abstained Choice whose options still differ, so the choice-set law holds', () => {
    const leaning: Answer = {
      type: 'choice',
      choice: 'b',
      confidence: 0.1,
      probabilities: { a: 0.344, b: 0.656 },
      arbiter: { engine: 'test', abstained: true, evidence: ['no-evidence'] },
    };
    const scaled = calibrateAnswer(leaning, { choice: { temperature: 2 } }, 'choice');
    expect(scaled.type === 'choice' && scaled.probabilities.a).toBeGreaterThan(0.344);
  });

  it('leaves an abstained answer, the prior, as it is', () => {
    const prior: Answer = {
      type: 'choice',
      choice: 'a',
      confidence: 0,
      probabilities: { a: 1 / 3, b: 1 / 3, c: 1 / 3 },
      arbiter: { engine: 'test', abstained: true, evidence: ['no-evidence'] },
    };
    expect(calibrateAnswer(prior, { choice: { temperature: 1.5 } }, 'choice')).toBe(prior);
  });

  it('accepts a monotone map in a catalog entry and rejects one that falls or repeats a knot', () => {
    const map: [number, number][] = [
      [0.3, 0.4],
      [0.6, 0.7],
    ];
    expect(engineCalibrationSchema.parse({ evidence: { 'noul:topical': { map } } })).toEqual({
      evidence: { 'noul:topical': { map } },
    });
    for (const bad of [
      [
        [0.3, 0.7],
        [0.6, 0.4],
      ],
      [
        [0.3, 0.4],
        [0.3, 0.5],
      ],
      [[0.3, 1.2]],
      [],
    ]) {
      expect(() => engineCalibrationSchema.parse({ evidence: { 'noul:topical': { map: bad } } })).toThrow();
    }
    expect(isIdentity({ evidence: { 'noul:topical': { map } } })).toBe(false);
  });

  it('accepts evidence temperatures in a catalog entry and rejects malformed ones', () => {
    expect(engineCalibrationSchema.parse({ evidence: { 'noul:topical': { temperature: 2 } } })).toEqual({
      evidence: { 'noul:topical': { temperature: 2 } },
    });
    expect(() =>
      engineCalibrationSchema.parse({ evidence: { 'noul:topical': { temperature: 0 } } }),
    ).toThrow();
    expect(() => engineCalibrationSchema.parse({ evidence: { 'noul:topical': 2 } })).toThrow();
  });

  it('counts a calibration whose temperatures are all one as none', () => {
    expect(isIdentity({})).toBe(true);
    expect(isIdentity({ noul: { temperature: 1 }, evidence: { 'noul:topical': { temperature: 1 } } })).toBe(
      true,
    );
    expect(isIdentity({ evidence: { 'noul:topical': { temperature: 2 } } })).toBe(false);
  });
});

describe('withCalibration', () => {
  const engine = {
    specificationVersion: 'v1' as const,
    engineId: 'test',
    evaluate: async (_request: EvaluateOptions) => ({
      answers: { q: { type: 'noul', noul: 0.9 } as Answer },
      usage: { input_tokens: 1, output_tokens: 0 },
    }),
    probe: () => 'still here',
  } satisfies DecisionEngine & { probe(): string };

  it('calibrates every answer and keeps the engine’s other members', async () => {
    const calibrated = withCalibration(engine, { noul: { temperature: 2 } });
    const { answers, usage } = await calibrated.evaluate({ state: 's', questions: {} });
    expect(answers.q?.type === 'noul' && answers.q.noul).toBeCloseTo(0.75, 12);
    expect(usage.input_tokens).toBe(1);
    expect(calibrated.probe()).toBe('still here');
    expect(withCalibration(engine, undefined)).toBe(engine);
  });
});

describe('calibration in the catalog', () => {
  it('takes the same `calibration` member on a built-in entry as on a model server entry', async () => {
    const { ModelCatalog } = await import('./catalog/model-catalog.js');
    const entry = (name: string, calibration?: object) => ({
      name,
      description: '',
      release_date: '2026-01-01',
      engine: { kind: 'builtin', ...(calibration ? { calibration } : {}) },
    });
    const catalog = new ModelCatalog({
      analysers: [],
      config: {
        builtinModels: false,
        defaultModel: 'plain-1.0.0',
        models: [entry('plain-1.0.0', {}), entry('soft-1.0.0', { noul: { temperature: 4 } })],
      },
    });
    const request = {
      state: 'Production is down! All API calls return 500',
      questions: { q: { type: 'noul' as const, instructions: 'Is this urgent?' } },
    };
    const plain = (await catalog.resolve('plain-1.0.0').engine.evaluate(request)).answers.q;
    const soft = (await catalog.resolve('soft-1.0.0').engine.evaluate(request)).answers.q;
    if (plain?.type !== 'noul' || soft?.type !== 'noul') throw new Error('not a noul');
    expect(plain.noul).toBeGreaterThan(0.6);
    expect(soft).toEqual(calibrateAnswer(plain, { noul: { temperature: 4 } }));
    expect(soft.noul).toBeLessThan(plain.noul);
  }, 120_000);
});
