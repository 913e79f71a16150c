import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Answer, EngineError, type Question } from '@arbiter/decision';
import { afterAll, describe, expect, it } from 'vitest';
import { readDecisionModelMetadata } from './decision-model-metadata.js';
import type { LlamaCppEngineConfigInput } from './llama-cpp-config.js';
import { createLlamaCppEngine, type LlamaCppEngine } from './llama-cpp-engine.js';

// Real GGUF files written by scripts/gguf/random-llama-gguf.mjs: random-weight llama models that
// declare a System One decision type (`llama.decision.type`), with a prompt template and temperatures
// of our own making. Real node-llama-cpp code reads their metadata and real llama.cpp evaluates them;
// the weights are random, so these tests check how the engine follows a file's declaration, never
// accuracy.
const PLAIN = fileURLToPath(new URL('./fixtures/tiny-random-llama.gguf', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../../../../scripts/gguf/random-llama-gguf.mjs', import.meta.url));
const generator = (await import(pathToFileURL(SCRIPT).href)) as {
  writeRandomLlamaGguf(options: {
    out: string;
    shape: string;
    decision?: { type: string; template?: string; temperatures?: Record<string, number> };
  }): unknown;
};

// State first, so every question of a request shares the state's tokens.
const TEMPLATE =
  '<|im_start|>user\n{% if state is string %}{{ state }}{% else %}{{ state | tojson }}{% endif %}{{ sep }}\n' +
  'Question: {% if instructions is string %}{{ instructions }}{% else %}{{ instructions | tojson }}{% endif %}\n' +
  '{% for o in options %}{% if o.label %}{{ o.label }}{% else %}{{ loop.index }}{% endif %}. {{ o.key }}' +
  '{% if o.description %}: {{ o.description }}{% endif %}\n{% endfor %}<|im_end|>\n<|im_start|>assistant\n';

const directory = mkdtempSync(join(tmpdir(), 'arbiter-system-one-'));
function gguf(
  name: string,
  decision?: { type: string; template?: string; temperatures?: Record<string, number> },
) {
  const out = join(directory, `${name}.gguf`);
  generator.writeRandomLlamaGguf({ out, shape: 'tiny', ...(decision ? { decision } : {}) });
  return out;
}
const LEV = gguf('lev', { type: 'lev', template: TEMPLATE, temperatures: { 'choice.small': 2, noul: 1.5 } });
const OPENJEV = gguf('openjev', { type: 'openjev', template: TEMPLATE });
const OPENJEV_WARM = gguf('openjev-t2', {
  type: 'openjev',
  template: TEMPLATE,
  temperatures: { 'choice.3_5': 2 },
});
const KEV = gguf('kev', { type: 'kev', template: TEMPLATE });
const UNKNOWN = gguf('mystery', { type: 'mystery', template: TEMPLATE });
const NO_TEMPLATE = gguf('lev-no-template', { type: 'lev' });

const engines: LlamaCppEngine[] = [];
function engine(path: string, overrides: Partial<LlamaCppEngineConfigInput> = {}): LlamaCppEngine {
  const created = createLlamaCppEngine({
    kind: 'llama-cpp',
    model: { path },
    gpu: false,
    threads: 1,
    ...overrides,
  });
  engines.push(created);
  return created;
}
afterAll(async () => {
  for (const created of engines) await created.close();
  rmSync(directory, { recursive: true, force: true });
});

const STATE =
  'Ticket 4411: production is down, every API call returns HTTP 500. The customer wants a refund.';
const QUESTIONS: Record<string, Question> = {
  urgent: {
    type: 'noul',
    instructions: 'Does this need action today?',
    criteria: { true: 'yes, today', false: 'no' },
  },
  team: {
    type: 'choice',
    instructions: 'Which team should take it?',
    criteria: { billing: 'refunds and invoices', infrastructure: 'outages', support: null },
  },
  severity: {
    type: 'score',
    instructions: 'How severe is it?',
    criteria: ['none', 'minor', 'major', 'critical'],
  },
};

function probabilities(answer: Answer | undefined): Record<string, number> {
  if (answer?.type !== 'choice' && answer?.type !== 'score')
    throw new Error(`not a distribution: ${JSON.stringify(answer)}`);
  return answer.probabilities as Record<string, number>;
}
const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);

describe('readDecisionModelMetadata', () => {
  it('reads the declared type, the systemone template and the temperatures', async () => {
    const declared = await readDecisionModelMetadata(LEV);
    expect(declared?.architecture).toBe('llama');
    expect(declared?.decisionType).toBe('lev');
    expect(declared?.template).toBe(TEMPLATE);
    expect(Object.fromEntries(declared?.temperatures ?? [])).toEqual({ 'choice.small': 2, noul: 1.5 });
  });

  it('finds no declaration in a plain language model', async () => {
    expect(await readDecisionModelMetadata(PLAIN)).toBeNull();
  });

  it('rejects a file that is not GGUF', async () => {
    const junk = join(directory, 'junk.gguf');
    writeFileSync(junk, 'not a gguf header at all');
    await expect(readDecisionModelMetadata(junk)).rejects.toThrow();
  });
});

describe('llama-cpp engine on a System One model answered with label tokens', () => {
  it('answers every question type from the model’s own template and labels', async () => {
    const { answers, usage } = await engine(LEV).evaluate({ state: STATE, questions: QUESTIONS });
    const urgent = answers.urgent;
    if (urgent?.type !== 'noul') throw new Error('expected a noul answer');
    expect(urgent.noul).toBeGreaterThanOrEqual(0);
    expect(urgent.noul).toBeLessThanOrEqual(1);
    expect(sum(probabilities(answers.team))).toBeCloseTo(1, 9);
    expect(Object.keys(probabilities(answers.team)).sort()).toEqual(['billing', 'infrastructure', 'support']);
    expect(sum(probabilities(answers.severity))).toBeCloseTo(1, 9);
    expect(answers.team?.arbiter?.engine).toBe('llama-cpp');
    expect(usage?.output_tokens).toBe(0);
  });

  it('gives a question the same answer whichever questions are asked with it', async () => {
    const model = engine(LEV);
    const together = await model.evaluate({ state: STATE, questions: QUESTIONS });
    for (const [id, question] of Object.entries(QUESTIONS)) {
      const alone = await model.evaluate({ state: STATE, questions: { [id]: question } });
      expect(alone.answers[id]).toEqual(together.answers[id]);
    }
  });

  it('evaluates the state once for all the questions of a request', async () => {
    const model = engine(LEV, { contextSize: 4096 });
    const long = STATE.repeat(12);
    const one = await model.evaluate({ state: `(a) ${long}`, questions: { urgent: QUESTIONS.urgent! } });
    const three = await model.evaluate({ state: `(b) ${long}`, questions: QUESTIONS });
    const single = one.usage?.input_tokens ?? 0;
    expect(single).toBeGreaterThan(500);
    // Four readings (the Choice is read twice); evaluating the long state for each would cost about 4×.
    expect(three.usage?.input_tokens).toBeLessThan(1.5 * single);
  });

  it('does not let the order of a Choice’s options in the request change their probabilities', async () => {
    const model = engine(LEV);
    const reversed: Question = {
      type: 'choice',
      instructions: 'Which team should take it?',
      criteria: { support: null, infrastructure: 'outages', billing: 'refunds and invoices' },
    };
    const a = await model.evaluate({ state: STATE, questions: { team: QUESTIONS.team! } });
    const b = await model.evaluate({ state: STATE, questions: { team: reversed } });
    expect(probabilities(b.answers.team)).toEqual(probabilities(a.answers.team));
  });

  it('divides the label logits by the temperature the file states for the question', async () => {
    const question = { team: QUESTIONS.team! };
    const cold = probabilities(
      (await engine(OPENJEV).evaluate({ state: STATE, questions: question })).answers.team,
    );
    const warm = probabilities(
      (await engine(OPENJEV_WARM).evaluate({ state: STATE, questions: question })).answers.team,
    );
    // Same weights (same seed), so with T = 2 each probability is the square root of the T = 1 one, renormalised.
    const roots = Object.fromEntries(Object.entries(cold).map(([key, p]) => [key, Math.sqrt(p)]));
    const total = sum(roots);
    for (const key of Object.keys(cold)) expect(warm[key]).toBeCloseTo(roots[key]! / total, 6);
  });
});

describe('configuration over a file’s System One declaration', () => {
  const question = { team: QUESTIONS.team! };
  const answer = async (path: string, overrides: Partial<LlamaCppEngineConfigInput> = {}) =>
    probabilities(
      (await engine(path, overrides).evaluate({ state: STATE, questions: question })).answers.team,
    );

  it('reads a file that declares nothing as the configured type, exactly as if the file declared it', async () => {
    // The same weights (same shape and seed); only the metadata differs.
    const declared = await answer(OPENJEV);
    const configured = await answer(PLAIN, { systemOne: { type: 'openjev', template: TEMPLATE } });
    expect(configured).toEqual(declared);
  });

  it('takes the template from the configuration for a file that has none', async () => {
    const fromConfiguration = await answer(NO_TEMPLATE, { systemOne: { template: TEMPLATE } });
    expect(sum(fromConfiguration)).toBeCloseTo(1, 9);
    expect(fromConfiguration).toEqual(await answer(LEV, { systemOne: { temperatures: {} } }));
  });

  it('replaces the file’s temperatures with the configured ones', async () => {
    expect(await answer(OPENJEV_WARM, { systemOne: { temperatures: {} } })).toEqual(await answer(OPENJEV));
  });

  it('names the configuration when a configured type cannot be read', async () => {
    const caught = await engine(PLAIN, { systemOne: { type: 'kev', template: TEMPLATE } })
      .evaluate({ state: STATE, questions: question })
      .catch((error: unknown) => error);
    expect((caught as EngineError).message).toContain(
      'configured as a System One decision model of type "kev"',
    );
  });
});

describe('llama-cpp engine on System One models it cannot read', () => {
  async function failure(path: string): Promise<EngineError> {
    const caught = await engine(path)
      .evaluate({ state: STATE, questions: { urgent: QUESTIONS.urgent! } })
      .catch((error: unknown) => error);
    expect(EngineError.isInstance(caught)).toBe(true);
    return caught as EngineError;
  }

  it('refuses a type answered by a decision head, naming the file, the type and the head', async () => {
    const error = await failure(KEV);
    expect(error.code).toBe('engine_unavailable');
    expect(error.isRetryable).toBe(false);
    expect(error.message).toContain(KEV);
    expect(error.message).toContain('llama.decision.type = "kev"');
    expect(error.message).toContain('pointer head');
  });

  it('refuses a type it does not know', async () => {
    const error = await failure(UNKNOWN);
    expect(error.message).toContain('"mystery"');
    expect(error.message).toContain('decisionMetadata: ignore');
  });

  it('refuses a label-token type whose file carries no template', async () => {
    expect((await failure(NO_TEMPLATE)).message).toContain('tokenizer.chat_template.systemone');
  });

  it('reads a declared model as a plain language model when told to ignore the declaration', async () => {
    const { answers } = await engine(KEV, { decisionMetadata: 'ignore' }).evaluate({
      state: STATE,
      questions: { urgent: QUESTIONS.urgent! },
    });
    expect(answers.urgent?.type).toBe('noul');
  });

  it('reports a file that is not GGUF as unavailable, naming it', async () => {
    const junk = join(directory, 'junk-engine.gguf');
    writeFileSync(junk, 'not a gguf header at all');
    const error = await failure(junk);
    expect(error.code).toBe('engine_unavailable');
    expect(error.message).toContain(junk);
  });
});
