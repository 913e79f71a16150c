import { describe, expect, it } from 'vitest';
import { DecisionClient } from '../client/decision-client.js';
import type {
  DecisionEngine,
  EvaluateOptions,
  EvaluateResult,
} from '../engine-specification/decision-engine.js';
import { EngineError } from '../engine-specification/engine-error.js';
import { choice, noul } from '../question/question-builders.js';
import type { Answer } from '../wire/answer.js';
import { createInProcessTransport } from './in-process-transport.js';

/** An engine of the real contract that records what it was asked and answers from the state text. */
function keywordEngine(
  behaviour: (call: number) => 'answer' | EngineError | 'hang' | 'wrong-type' = () => 'answer',
) {
  const calls: EvaluateOptions[] = [];
  const engine: DecisionEngine = {
    specificationVersion: 'v1',
    engineId: 'keyword',
    async evaluate(options): Promise<EvaluateResult> {
      calls.push(options);
      const step = behaviour(calls.length);
      if (step instanceof EngineError) throw step;
      if (step === 'hang') return new Promise(() => {});
      const text = JSON.stringify(options.state);
      const answers: Record<string, Answer> = {};
      for (const [id, question] of Object.entries(options.questions)) {
        if (step === 'wrong-type' || question.type === 'noul') {
          answers[id] = { type: 'noul', noul: text.includes('urgent') ? 0.8 : 0.2 };
        } else if (question.type === 'choice') {
          const options = Object.keys(question.criteria);
          const selected = options.find((option) => text.includes(option)) ?? options[0] ?? '';
          answers[id] = {
            type: 'choice',
            choice: selected,
            confidence: 0.5,
            probabilities: Object.fromEntries(options.map((option) => [option, option === selected ? 1 : 0])),
          };
        }
      }
      return { answers, usage: { input_tokens: null, output_tokens: null } };
    },
  };
  return { engine, calls };
}

const questions = { urgent: noul('Is this urgent?'), team: choice('Which team?', ['billing', 'technical']) };

describe('in-process transport', () => {
  it('calls the engine directly and reports the configured pin', async () => {
    const { engine, calls } = keywordEngine();
    const client = new DecisionClient({
      transport: createInProcessTransport({ engine, model: 'arbiter-1.0.0' }),
    });
    const pack = { name: 'arbiter/tool-gate', version: '1.0.0' };
    const result = await client.decide({ state: 'urgent: technical outage', questions, pack });
    expect(result).toMatchObject({
      skipped: false,
      model: 'arbiter-1.0.0',
      answers: { urgent: { noul: 0.8 }, team: { choice: 'technical' } },
      usage: { input_tokens: null, output_tokens: null },
    });
    expect(calls[0]?.pack).toEqual(pack);
    expect(calls[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it('defaults the reported model to the engine id', async () => {
    const { engine } = keywordEngine();
    const result = await new DecisionClient({ transport: createInProcessTransport({ engine }) }).decide({
      state: 's',
      questions,
    });
    expect(result).toMatchObject({ skipped: false, model: 'keyword' });
  });

  it('hands the engine a redacted state, or the raw one with redact: false', async () => {
    const { engine, calls } = keywordEngine();
    const password = 'Tr0ub4dor&3-staging';
    const transport = createInProcessTransport({ engine });
    await new DecisionClient({ transport }).decide({ state: { env: `DB_PASSWORD=${password}` }, questions });
    await new DecisionClient({ transport, redact: false }).decide({
      state: { env: `DB_PASSWORD=${password}` },
      questions,
    });
    expect(calls[0]?.state).toEqual({ env: 'DB_PASSWORD=[REDACTED:secret-assignment]' });
    expect(calls[1]?.state).toEqual({ env: `DB_PASSWORD=${password}` });
  });

  it('validates the request with the server schemas before calling the engine', async () => {
    const { engine, calls } = keywordEngine();
    const tooMany = Array.from({ length: 256 }, (_, index) => `option-${index}`);
    const result = await new DecisionClient({ transport: createInProcessTransport({ engine }) }).decide({
      state: 's',
      questions: { team: choice('Which?', tooMany) },
    });
    expect(result).toMatchObject({ skipped: true, reason: 'client_error' });
    if (result.skipped)
      expect(result.message).toContain('questions.team.criteria: a choice may have at most 255 options');
    expect(calls).toHaveLength(0);
  });

  it('retries an unavailable engine and then answers', async () => {
    const { engine, calls } = keywordEngine((call) =>
      call === 1
        ? new EngineError({ code: 'engine_unavailable', message: 'model server starting' })
        : 'answer',
    );
    const result = await new DecisionClient({
      transport: createInProcessTransport({ engine }),
      retry: { baseDelayMs: 5 },
    }).decide({ state: 's', questions });
    expect(result).toMatchObject({ skipped: false, attempts: 2 });
    expect(calls).toHaveLength(2);
  });

  it('skips at once with server_error when the engine fails for good', async () => {
    const { engine, calls } = keywordEngine(
      () => new EngineError({ code: 'engine_error', message: 'bad logprobs' }),
    );
    const result = await new DecisionClient({ transport: createInProcessTransport({ engine }) }).decide({
      state: 's',
      questions,
    });
    expect(result).toMatchObject({
      skipped: true,
      reason: 'server_error',
      message: 'in-process: engine keyword: engine_error: bad logprobs',
      attempts: 1,
    });
    expect(calls).toHaveLength(1);
  });

  it('skips with timeout at the budget even when the engine ignores its signal', async () => {
    const { engine } = keywordEngine(() => 'hang');
    const result = await new DecisionClient({
      transport: createInProcessTransport({ engine }),
      budgetMs: 100,
    }).decide({
      state: 's',
      questions,
    });
    expect(result).toMatchObject({ skipped: true, reason: 'timeout' });
    expect(result.latencyMs).toBeLessThan(1_000);
  });

  it("aborts the engine's signal at the budget and when the caller aborts", async () => {
    const seen: AbortSignal[] = [];
    const engine: DecisionEngine = {
      specificationVersion: 'v1',
      engineId: 'waiting',
      evaluate: ({ signal }) =>
        new Promise((_, reject) => {
          if (signal === undefined) return reject(new Error('no signal'));
          seen.push(signal);
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    };
    const client = new DecisionClient({ transport: createInProcessTransport({ engine }), budgetMs: 50 });
    expect(await client.decide({ state: 's', questions })).toMatchObject({
      skipped: true,
      reason: 'timeout',
    });
    const caller = new AbortController();
    const pending = client.decide({ state: 's', questions, signal: caller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    caller.abort(new Error('user pressed escape'));
    expect(await pending).toMatchObject({ skipped: true, reason: 'aborted' });
    expect(seen.map((signal) => signal.aborted)).toEqual([true, true]);
    expect(seen[1]?.reason).toEqual(new Error('user pressed escape'));
  });

  it('skips with invalid_response when the engine answers with the wrong type', async () => {
    const { engine } = keywordEngine(() => 'wrong-type');
    const result = await new DecisionClient({ transport: createInProcessTransport({ engine }) }).decide({
      state: 's',
      questions,
    });
    expect(result).toMatchObject({ skipped: true, reason: 'invalid_response' });
    if (result.skipped)
      expect(result.message).toContain('question "team" is a choice but the answer is a noul');
  });
});
