import {
  type Answer,
  createInProcessTransport,
  createStubTransport,
  DecisionClient,
  type DecisionEngine,
  type EvaluateOptions,
} from '@arbiter/decision';
import { describe, expect, it } from 'vitest';
import { loadRubric } from '../rubric/load-rubric.js';
import { gradeWork } from './grade-work.js';

const rubric = loadRubric({
  name: 'unit',
  version: '1.0.0',
  criteria: [
    {
      id: 'depth',
      type: 'score',
      question: 'How deep?',
      levels: ['shallow', 'fair', 'deep'],
      pass_score: 1.5,
    },
    { id: 'cited', type: 'noul', statement: 'Sources are cited.', pass_probability: 0.7, required: true },
  ],
});

/** A deterministic engine: fixed distributions, and a record of what it was asked. */
function fixedEngine(answers: Record<string, Answer>, seen: EvaluateOptions[] = []): DecisionEngine {
  return {
    specificationVersion: 'v1',
    engineId: 'fixed',
    async evaluate(options) {
      seen.push(options);
      return { answers, usage: { input_tokens: 10, output_tokens: null } };
    },
  };
}

const deep: Answer = {
  type: 'score',
  score: 1.8,
  confidence: 0.5,
  probabilities: { '0': 0.05, '1': 0.1, '2': 0.85 },
  legend: { '0': 'shallow', '1': 'fair', '2': 'deep' },
};

describe('gradeWork', () => {
  it('sends the rubric as the pack with one question per criterion and grades the answers', async () => {
    const seen: EvaluateOptions[] = [];
    const engine = fixedEngine({ depth: deep, cited: { type: 'noul', noul: 0.95 } }, seen);
    const client = new DecisionClient({
      transport: createInProcessTransport({ engine, model: 'fixed-1.0.0' }),
    });
    const grade = await gradeWork({ client, rubric, work: 'An essay.' });
    expect(seen[0]?.pack).toEqual(rubric.pack);
    expect(seen[0]?.state).toBe('An essay.');
    expect(Object.keys(seen[0]?.questions ?? {})).toEqual(['depth', 'cited']);
    expect(grade).toMatchObject({
      rubric: { name: 'unit', version: '1.0.0', sha256: rubric.sha256 },
      outcome: 'satisfied',
      model: 'fixed-1.0.0',
      usage: { input_tokens: 10, output_tokens: null },
    });
    expect(grade.criteria.map((criterion) => [criterion.id, criterion.passed])).toEqual([
      ['depth', true],
      ['cited', true],
    ]);
    expect(grade.criteria[1]?.confidence).toBeCloseTo(
      1 + (0.95 * Math.log(0.95) + 0.05 * Math.log(0.05)) / Math.LN2,
      10,
    );
  });

  it('is ungraded with the skip reason when the service is unreachable', async () => {
    const client = new DecisionClient({
      transport: createInProcessTransport({
        engine: {
          specificationVersion: 'v1',
          engineId: 'down',
          evaluate: async () => {
            throw new Error('model server refused the connection');
          },
        },
      }),
    });
    const grade = await gradeWork({ client, rubric, work: 'An essay.' });
    expect(grade.outcome).toBe('ungraded');
    expect(grade.ungraded?.reason).toBe('service_skipped');
    expect(grade.ungraded?.message).toMatch(
      /^the decision service was skipped \(\w+\): .*refused the connection/,
    );
    expect(grade).toMatchObject({ criteria: [], weightedScore: null, model: null, usage: null });
  });

  it('treats the stub client as abstaining, never as a grade', async () => {
    const grade = await gradeWork({
      client: new DecisionClient({ transport: createStubTransport() }),
      rubric,
      work: 'x',
    });
    expect(grade.outcome).toBe('ungraded');
    expect(grade.ungraded).toMatchObject({ reason: 'engine_abstained', criteria: ['depth', 'cited'] });
  });
});
