import type { PackAnalyser } from '@arbiter/decision';
import {
  answerSchema,
  type EvaluateOptions,
  type Question,
  questionSchema,
  type ScoreAnswer,
} from '@arbiter/decision';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinEngine } from './builtin-engine.js';
import { loadWordVectors } from './lexical/word-vectors.js';

const engine = createBuiltinEngine();

// The shipped word-vector table loads once per process (under a second, longer on a loaded machine).
beforeAll(() => loadWordVectors(), 180_000);

const ticket = {
  state: 'Help! My payouts have been failing for 3 days and the refund never arrived.',
  questions: {
    is_urgent: {
      type: 'noul',
      instructions: 'Does this convey urgency?',
      criteria: { true: 'needs help today, failing, blocked', false: 'a question that can wait' },
    },
    department: {
      type: 'choice',
      instructions: 'Which team should handle this?',
      criteria: { billing: 'payments, payouts and refunds', technical: 'bugs and outages', sales: null },
    },
    severity: {
      type: 'score',
      instructions: 'How severe is the issue?',
      criteria: ['Cosmetic', 'Workaround exists', 'Blocking; failing payouts, no workaround'],
    },
  },
} satisfies EvaluateOptions;

function sum(values: Record<string, number>): number {
  return Object.values(values).reduce((total, value) => total + value, 0);
}

describe('createBuiltinEngine (lexical evaluator)', () => {
  it('leans towards the options the state talks about, never with certainty', async () => {
    const { answers, usage } = await engine.evaluate(ticket);
    const department = answers.department;
    expect(department?.type).toBe('choice');
    if (department?.type !== 'choice') return;
    expect(department.choice).toBe('billing');
    expect(department.probabilities.billing).toBeGreaterThan(0.5);
    expect(department.probabilities.billing).toBeLessThan(1);
    expect(department.confidence).toBeGreaterThan(0);
    expect(department.confidence).toBeLessThan(1);
    expect(department.arbiter).toMatchObject({ engine: 'builtin', abstained: false });
    expect(department.arbiter?.evidence).toContain('term:payout');

    const severity = answers.severity as ScoreAnswer;
    expect(severity.score).toBeGreaterThan(1);
    expect(Object.keys(severity.probabilities)).toEqual(['0', '1', '2']);
    expect(severity.legend).toEqual({
      '0': 'Cosmetic',
      '1': 'Workaround exists',
      '2': ticket.questions.severity.criteria[2],
    });

    const urgent = answers.is_urgent;
    expect(urgent?.type === 'noul' && urgent.noul).toBeGreaterThan(0.5);
    expect(usage.output_tokens).toBe(0);
    expect(usage.input_tokens).toBeGreaterThan(0);
  });

  it('abstains with the uninformed prior when no word has evidence', async () => {
    const { answers } = await engine.evaluate({
      state: 'zzz qqq',
      questions: {
        flag: { type: 'noul', instructions: 'Is the sky green?' },
        pick: { type: 'choice', instructions: 'Pick one', criteria: { red: null, blue: null, green: null } },
        level: { type: 'score', instructions: 'Rate', criteria: ['low', 'mid', 'high', null] },
      },
    });
    expect(answers.flag).toEqual({
      type: 'noul',
      noul: 0.5,
      arbiter: { engine: 'builtin', abstained: true, evidence: ['no-evidence'] },
    });
    expect(answers.pick).toMatchObject({
      choice: 'red',
      confidence: 0,
      probabilities: { red: 1 / 3, blue: 1 / 3, green: 1 / 3 },
      arbiter: { abstained: true },
    });
    expect(answers.level).toMatchObject({ score: 1.5, confidence: 0, arbiter: { abstained: true } });
  });

  it('reads object and array states, keys included', async () => {
    const { answers } = await engine.evaluate({
      state: { refund: ['the customer wants money back'], note: 42 },
      questions: { team: { type: 'choice', instructions: 'team', criteria: { refund: null, outage: null } } },
    });
    expect(answers.team).toMatchObject({ choice: 'refund', arbiter: { abstained: false } });
  });

  it('keeps a question id or option named __proto__ as data', async () => {
    const questions = JSON.parse(
      '{"__proto__": {"type": "choice", "instructions": "x", "criteria": {"__proto__": null, "b": null}}}',
    ) as Record<string, Question>;
    const { answers } = await engine.evaluate({ state: 'b', questions });
    expect(Object.keys(answers)).toEqual(['__proto__']);
    const protoAnswer = Object.getOwnPropertyDescriptor(answers, '__proto__')?.value as
      | { probabilities: object }
      | undefined;
    expect(Object.keys(protoAnswer?.probabilities ?? {})).toEqual(['__proto__', 'b']);
  });

  it('answers synchronously and so never reads the signal (callers make it on first read)', async () => {
    let reads = 0;
    const options = {
      ...ticket,
      get signal() {
        reads += 1;
        return AbortSignal.abort();
      },
    };
    const { answers } = await engine.evaluate(options);
    expect(Object.keys(answers)).toEqual(Object.keys(ticket.questions));
    expect(reads).toBe(0);
  });

  it('calibrates each simple claim before deriving compounds and yes/no Scores', async () => {
    // A strong calibration, so a compound calibrated as a whole would break inclusion-exclusion.
    const calibrated = createBuiltinEngine({ calibration: { noul: { temperature: 0.4 } } });
    const raw = createBuiltinEngine({ calibration: {} });
    const a = 'the payouts are failing';
    const b = 'the refund never arrived';
    const request = {
      state: ticket.state,
      questions: {
        a: { type: 'noul', instructions: `${a}.` },
        b: { type: 'noul', instructions: `${b}.` },
        and: { type: 'noul', instructions: `${a} and ${b}.` },
        or: { type: 'noul', instructions: `${a} or ${b}.` },
        score: { type: 'score', instructions: `${a}.`, criteria: ['No', 'Yes'] },
      },
    } satisfies EvaluateOptions;
    const p = (answers: Record<string, unknown>, id: string) => {
      const answer = answers[id] as { type: string; noul: number };
      return answer.noul;
    };
    const { answers } = await calibrated.evaluate(request);
    const before = (await raw.evaluate(request)).answers;
    // The calibration changed the simple claim…
    expect(Math.abs(p(answers, 'a') - p(before, 'a'))).toBeGreaterThan(0.01);
    // …and every derived answer follows it.
    expect(p(answers, 'a') + p(answers, 'b')).toBeCloseTo(p(answers, 'and') + p(answers, 'or'), 9);
    expect(p(answers, 'and')).toBeCloseTo(p(answers, 'a') * p(answers, 'b'), 9);
    const score = answers.score as ScoreAnswer;
    expect(score.probabilities['1']).toBeCloseTo(p(answers, 'a'), 9);
  });

  it('routes a request naming a pack to the analyser that accepts it', async () => {
    const calls: string[] = [];
    const analyser: PackAnalyser = {
      packName: 'example/pack',
      accepts: (options) => 'only' in options.questions,
      evaluate: () => {
        calls.push('analyser');
        return {
          answers: {
            only: { type: 'noul', noul: 0.9, arbiter: { engine: 'builtin/example', abstained: false } },
          },
          usage: { input_tokens: 1, output_tokens: 0 },
        };
      },
    };
    const routed = createBuiltinEngine({ analysers: [analyser] });
    const pack = { name: 'example/pack', version: '1.0.0' };
    const only = { only: { type: 'noul', instructions: 'x' } } as const;
    expect((await routed.evaluate({ state: 's', questions: only, pack })).answers.only).toMatchObject({
      noul: 0.9,
    });
    // A question the analyser does not accept, or another pack, falls back to the lexical evaluator.
    const other = await routed.evaluate({
      state: 's',
      questions: { other: { type: 'noul', instructions: 'x' } },
      pack,
    });
    expect(other.answers.other?.arbiter?.engine).toBe('builtin');
    const elsewhere = await routed.evaluate({
      state: 's',
      questions: only,
      pack: { name: 'x', version: '1' },
    });
    expect(elsewhere.answers.only?.arbiter?.engine).toBe('builtin');
    expect(calls).toEqual(['analyser']);
  });

  it('answers every valid question with a well-formed answer (property)', async () => {
    // Words the engine has tables for, and names of Object.prototype members: every table the
    // engine reads by a word must answer for `constructor` as for any unknown word.
    const word = fc.constantFrom(
      'constructor',
      'toString',
      'valueOf',
      'hasOwnProperty',
      '__proto__',
      'good',
      'terrible',
      'who',
      'how many',
      'premise',
      'hypothesis:',
      'true',
    );
    const text = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' ')),
    );
    // `__proto__` stays a word, not a name: the server's JSON parser refuses it as a member name.
    const name = fc.oneof(
      fc.string({ minLength: 1, maxLength: 8 }),
      fc.constantFrom('constructor', 'toString', 'valueOf', 'hasOwnProperty'),
    );
    // Descriptions are instruction values: text, or structured content read as its words.
    const description = fc.option(
      fc.oneof(
        text,
        fc.array(fc.oneof(text, fc.integer(), fc.constant(null)), { maxLength: 3 }),
        fc.dictionary(name, fc.oneof(text, fc.integer()), { maxKeys: 3 }),
      ),
      { nil: null },
    );
    const question = fc.oneof(
      fc.record({ type: fc.constant('noul' as const), instructions: text }),
      fc.record({
        type: fc.constant('choice' as const),
        instructions: text,
        criteria: fc.dictionary(name, description, { minKeys: 1, maxKeys: 12 }),
      }),
      fc.record({
        type: fc.constant('score' as const),
        instructions: text,
        criteria: fc.array(description, { minLength: 2, maxLength: 10 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), question, { minKeys: 1, maxKeys: 4 }),
        async (state, questions) => {
          const { answers } = await engine.evaluate({ state, questions });
          expect(Object.keys(answers)).toEqual(Object.keys(questions));
          for (const [id, answer] of Object.entries(answers)) {
            const asked = questionSchema.parse(questions[id]);
            expect(answerSchema.parse(answer).type).toBe(asked.type);
            if (answer.type === 'noul') continue;
            expect(sum(answer.probabilities)).toBeCloseTo(1, 9);
            if (answer.type === 'choice' && asked.type === 'choice') {
              expect(Object.keys(answer.probabilities)).toEqual(Object.keys(asked.criteria));
              const best = Math.max(...Object.values(answer.probabilities));
              expect(answer.probabilities[answer.choice]).toBe(best);
            }
            if (answer.type === 'score' && asked.type === 'score') {
              const expected = Object.entries(answer.probabilities).reduce(
                (s, [i, p]) => s + Number(i) * p,
                0,
              );
              expect(answer.score).toBeCloseTo(expected, 9);
              expect(answer.score).toBeLessThanOrEqual(asked.criteria.length - 1);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
