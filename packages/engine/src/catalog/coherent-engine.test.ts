import { createHash } from 'node:crypto';
import type { Answer, DecisionEngine, EvaluateOptions, Question } from '@arbiter/decision';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ScriptedChatServer,
  type ScriptedReply,
  startScriptedChatServer,
} from '../../test/support/scripted-chat-server.js';
import { loadWordVectors } from '../builtin/lexical/word-vectors.js';
import { checkEngineAvailability } from '../llm/engine-availability.js';
import { createOpenAICompatibleEngine } from '../llm/openai-compatible-engine.js';
import { withCoherence } from './coherent-engine.js';
import { ModelCatalog } from './model-catalog.js';

// Metamorphic tests of the coherence laws (docs/engines.md), written from the laws themselves:
// transform a request in a way the law says cannot matter, and compare the answers.
//
// The model server is a fake on 127.0.0.1 speaking the chat-completions wire format, and a
// deliberately incoherent "model": each label's logprob is a hash of the label and the whole prompt,
// so without the coherence layer its answers depend on option order and on the other options.

function hashUnit(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

function labelsOf(prompt: string): string[] {
  if (prompt.includes('Reply with only yes or no')) return ['yes', 'no'];
  const listed = /\(one of ([^)]*)\)\.\s*$/.exec(prompt)?.[1];
  return listed ? listed.split(', ') : [];
}

/** The incoherent model's reply: each offered label's probability a hash of the label and the prompt. */
function incoherentCompletion(prompt: string): ScriptedReply {
  return {
    top: labelsOf(prompt).map((label) => [label, 0.05 + hashUnit(`${label}\n${prompt}`)] as const),
    usage: { prompt_tokens: 50, completion_tokens: 1 },
  };
}

let server: ScriptedChatServer;
let baseURL = '';

beforeAll(async () => {
  // The word-vector table (shipped in packages/engine/word-vectors) loads once, before the timed requests.
  await loadWordVectors();
  server = await startScriptedChatServer(({ prompt }) => incoherentCompletion(prompt), {
    models: ['fake-model'],
  });
  baseURL = server.baseURL;
}, 180_000);

afterAll(() => server.close());

function catalog(): ModelCatalog {
  return new ModelCatalog({
    analysers: [],
    config: {
      models: [
        {
          name: 'fake-1.0.0',
          release_date: '2026-11-01',
          engine: { kind: 'openai-compatible', baseURL, model: 'fake-model', timeoutMs: 5_000 },
        },
      ],
    },
  });
}

const ENGINES: { name: string; engine: () => DecisionEngine; runs: number }[] = [
  { name: 'builtin', engine: () => catalog().resolve('arbiter-latest').engine, runs: 60 },
  {
    name: 'openai-compatible (fake server)',
    engine: () => catalog().resolve('fake-latest').engine,
    runs: 25,
  },
];

// Generators: realistic words, so the built-in engine has evidence to weigh, not only abstentions.
const WORDS = [
  'refund',
  'payment',
  'failed',
  'server',
  'outage',
  'great',
  'terrible',
  'football',
  'election',
  'market',
  'shares',
  'card',
  'lost',
  'urgent',
  'happy',
  'angry',
  'bug',
  'login',
  'weather',
  'music',
  'flight',
  'not',
];
const stateArb = fc
  .array(fc.constantFrom(...WORDS, 'the', 'is', 'and', 'my', '!'), { minLength: 0, maxLength: 25 })
  .map((words) => words.join(' '));
const OPTION_NAMES = [
  'billing',
  'technical',
  'sales',
  'positive',
  'negative',
  'neutral',
  'sports',
  'world',
  'business',
  'science',
  'urgent',
  'later',
  'card_lost',
  'refund_missing',
  '__proto__',
];
const descriptionArb = fc.option(
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }).map((words) => words.join(' ')),
  { nil: null },
);
const choiceArb = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...OPTION_NAMES), descriptionArb), {
    minLength: 3,
    maxLength: 6,
    selector: ([name]) => name,
  })
  .map(
    (options): Extract<Question, { type: 'choice' }> => ({
      type: 'choice',
      instructions: 'Which fits the message best?',
      criteria: Object.fromEntries(options),
    }),
  );
const noulArb = fc.record({
  type: fc.constant('noul' as const),
  instructions: fc.constantFrom('Is this urgent?', 'Is the customer happy?', 'Is this about money?'),
});
const scoreArb = fc.record({
  type: fc.constant('score' as const),
  instructions: fc.constantFrom('How positive is it?', 'How severe is it?'),
  criteria: fc.constantFrom(
    ['low', 'medium', 'high'],
    ['very negative', 'negative', 'neutral', 'positive', 'very positive'],
  ),
});
const questionsArb = fc
  .uniqueArray(
    fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', '__proto__'), fc.oneof(choiceArb, noulArb, scoreArb)),
    {
      minLength: 2,
      maxLength: 4,
      selector: ([id]) => id,
    },
  )
  .map((entries) => Object.fromEntries(entries) as Record<string, Question>);

function probabilitiesOf(answer: Answer | undefined): Record<string, number> {
  if (!answer) throw new Error('no answer');
  return answer.type === 'noul' ? { true: answer.noul, false: 1 - answer.noul } : answer.probabilities;
}

async function answersOf(engine: DecisionEngine, request: EvaluateOptions): Promise<Record<string, Answer>> {
  return (await engine.evaluate(request)).answers;
}

describe.each(ENGINES)('coherence laws: $name', ({ engine: makeEngine, runs }) => {
  let engine: DecisionEngine;
  // Made after the fake server listens (describe bodies run before beforeAll hooks).
  beforeAll(() => {
    engine = makeEngine();
  });

  it('question independence: an answer does not depend on the other questions asked with it', async () => {
    await fc.assert(
      fc.asyncProperty(stateArb, questionsArb, fc.nat(), async (state, questions, pick) => {
        const ids = Object.keys(questions);
        const id = ids[pick % ids.length]!;
        const together = await answersOf(engine, { state, questions });
        const alone = await answersOf(engine, {
          state,
          questions: Object.fromEntries([[id, questions[id]!]]),
        });
        expect(alone[id]).toEqual(together[id]);
      }),
      { numRuns: runs },
    );
  });

  it('option-order invariance: reordering a choice leaves every option its probability', async () => {
    await fc.assert(
      fc.asyncProperty(stateArb, choiceArb, fc.nat(), async (state, question, seed) => {
        const entries = Object.entries(question.criteria);
        const shuffled = [...entries].sort((a, b) => hashUnit(`${seed}${a[0]}`) - hashUnit(`${seed}${b[0]}`));
        const reordered = { ...question, criteria: Object.fromEntries(shuffled) };
        const first = (await answersOf(engine, { state, questions: { q: question } })).q;
        const second = (await answersOf(engine, { state, questions: { q: reordered } })).q;
        expect(second?.type === 'choice' && Object.keys(second.probabilities)).toEqual(
          shuffled.map(([n]) => n),
        );
        for (const [name] of entries)
          expect(probabilitiesOf(second)[name]).toBe(probabilitiesOf(first)[name]);
        expect(second?.type === 'choice' && second.choice).toBe(first?.type === 'choice' && first.choice);
      }),
      { numRuns: runs },
    );
  });

  it("normalisation: every question's probabilities sum to one", async () => {
    await fc.assert(
      fc.asyncProperty(stateArb, questionsArb, async (state, questions) => {
        const answers = await answersOf(engine, { state, questions });
        for (const id of Object.keys(questions)) {
          const values = Object.values(probabilitiesOf(answers[id]));
          expect(values.reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 9);
          for (const value of values) expect(value).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: runs },
    );
  });
});

describe("independence from irrelevant alternatives (Luce's choice axiom)", () => {
  it('holds for the built-in engine: removing an option keeps the others in proportion', async () => {
    const engine = catalog().resolve('arbiter-latest').engine;
    await fc.assert(
      fc.asyncProperty(stateArb, choiceArb, fc.nat(), async (state, question, drop) => {
        const names = Object.keys(question.criteria);
        const removed = names[drop % names.length]!;
        const kept = names.filter((name) => name !== removed);
        const smaller = {
          ...question,
          criteria: Object.fromEntries(kept.map((name) => [name, question.criteria[name]!])),
        };
        const full = probabilitiesOf((await answersOf(engine, { state, questions: { q: question } })).q);
        const reduced = probabilitiesOf((await answersOf(engine, { state, questions: { q: smaller } })).q);
        const keptMass = kept.reduce((sum, name) => sum + full[name]!, 0);
        for (const name of kept) expect(reduced[name]).toBeCloseTo(full[name]! / keptMass, 9);
      }),
      { numRuns: 100 },
    );
  });

  it('is not promised for a model prompted with the option list: the fake model breaks it', async () => {
    const engine = catalog().resolve('fake-latest').engine;
    const question: Question = {
      type: 'choice',
      instructions: 'Pick',
      criteria: { a: null, b: null, c: null },
    };
    const smaller: Question = { type: 'choice', instructions: 'Pick', criteria: { a: null, b: null } };
    const full = probabilitiesOf((await answersOf(engine, { state: 's', questions: { q: question } })).q);
    const reduced = probabilitiesOf((await answersOf(engine, { state: 's', questions: { q: smaller } })).q);
    expect(reduced.a! / reduced.b!).not.toBeCloseTo(full.a! / full.b!, 6);
  });
});

describe('withCoherence', () => {
  it('is what makes the model engine order-invariant: the bare engine is not', async () => {
    const bare = createOpenAICompatibleEngine({
      kind: 'openai-compatible',
      baseURL,
      model: 'fake-model',
      timeoutMs: 5_000,
    });
    const coherent = withCoherence(bare);
    const forward: Question = {
      type: 'choice',
      instructions: 'Pick',
      criteria: { x: null, y: null, z: null },
    };
    const backward: Question = {
      type: 'choice',
      instructions: 'Pick',
      criteria: { z: null, y: null, x: null },
    };
    const bareForward = probabilitiesOf((await answersOf(bare, { state: 's', questions: { q: forward } })).q);
    const bareBackward = probabilitiesOf(
      (await answersOf(bare, { state: 's', questions: { q: backward } })).q,
    );
    expect(bareBackward.x).not.toBeCloseTo(bareForward.x!, 6);
    const coherentForward = probabilitiesOf(
      (await answersOf(coherent, { state: 's', questions: { q: forward } })).q,
    );
    const coherentBackward = probabilitiesOf(
      (await answersOf(coherent, { state: 's', questions: { q: backward } })).q,
    );
    expect(coherentBackward).toEqual(coherentForward);
  });

  it('renormalises a drifting distribution and recomputes the pick, confidence and expected score', async () => {
    const drifting: DecisionEngine = {
      specificationVersion: 'v1',
      engineId: 'drifting',
      evaluate: async () => ({
        answers: {
          pick: { type: 'choice', choice: 'a', confidence: 0.9, probabilities: { a: 0.5, b: 1.5 } },
          level: {
            type: 'score',
            score: 0,
            confidence: 0.5,
            probabilities: { '0': 0.5, '1': 1.5 },
            legend: { '0': null, '1': null },
          },
          empty: { type: 'choice', choice: 'a', confidence: 1, probabilities: { a: 0, b: 0 } },
        },
        usage: { input_tokens: 1, output_tokens: null },
      }),
    };
    const options: Question = { type: 'choice', instructions: 'Pick', criteria: { a: null, b: null } };
    const { answers, usage } = await withCoherence(drifting, {
      answersQuestionsIndependently: true,
    }).evaluate({
      state: 's',
      questions: {
        pick: options,
        level: { type: 'score', instructions: 'Rate', criteria: [null, null] },
        empty: options,
      },
    });
    expect(answers.pick).toMatchObject({ choice: 'b', probabilities: { a: 0.25, b: 0.75 } });
    expect(answers.pick?.type === 'choice' && answers.pick.confidence).toBeCloseTo(
      1 - (-(0.25 * Math.log(0.25)) - 0.75 * Math.log(0.75)) / Math.log(2),
      12,
    );
    expect(answers.level).toMatchObject({ score: 0.75, probabilities: { '0': 0.25, '1': 0.75 } });
    expect(answers.empty).toMatchObject({ probabilities: { a: 0.5, b: 0.5 }, confidence: 0 });
    expect(usage).toEqual({ input_tokens: 1, output_tokens: null });
  });

  it('passes an answer that does not fit its question through unchanged, for the answer check to report', async () => {
    const liar: DecisionEngine = {
      specificationVersion: 'v1',
      engineId: 'liar',
      evaluate: async () => ({
        answers: {
          q: { type: 'choice', choice: 'x', confidence: 1, probabilities: { x: 1 } },
          extra: { type: 'noul', noul: 0.3 },
        },
        usage: { input_tokens: 0, output_tokens: 0 },
      }),
    };
    const { answers } = await withCoherence(liar).evaluate({
      state: 's',
      questions: { q: { type: 'choice', instructions: 'Pick', criteria: { a: null, b: null } } },
    });
    expect(answers).toEqual({
      q: { type: 'choice', choice: 'x', confidence: 1, probabilities: { x: 1 } },
      extra: { type: 'noul', noul: 0.3 },
    });
  });

  it('keeps the engine’s other members: the catalog engine still answers its availability probe', async () => {
    const engine = catalog().resolve('fake-latest').engine;
    expect(engine.engineId).toBe('llm');
    expect(await checkEngineAvailability(engine)).toMatchObject({ available: true });
  });

  it('sums usage over the questions it sent one by one, unknown when any call left it unknown', async () => {
    let calls = 0;
    const counting: DecisionEngine = {
      specificationVersion: 'v1',
      engineId: 'counting',
      evaluate: async ({ questions }) => {
        calls++;
        const id = Object.keys(questions)[0]!;
        return {
          answers: { [id]: { type: 'noul', noul: 0.5 } },
          usage: { input_tokens: 10, output_tokens: 1 },
        };
      },
    };
    const noul: Question = { type: 'noul', instructions: 'Is it?' };
    const { usage } = await withCoherence(counting).evaluate({
      state: 's',
      questions: { a: noul, b: noul, c: noul },
    });
    expect(calls).toBe(3);
    expect(usage).toEqual({ input_tokens: 30, output_tokens: 3 });
  });
});
