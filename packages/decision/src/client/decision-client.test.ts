import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/support/manual-clock.js';
import { noul } from '../question/question-builders.js';
import { createStubTransport } from '../transport/stub-transport.js';
import type { DecisionRequest } from '../wire/request.js';
import { SKIP_REASONS } from './decide-result.js';
import { DEFAULT_BUDGET_MS, DecisionClient } from './decision-client.js';
import type { DecisionTransport, TransportOutcome } from './decision-transport.js';

const questions = { urgent: noul('Is this urgent?') };
const answered = {
  ok: true,
  body: {
    model: 'scripted-1.0.0',
    answers: { urgent: { type: 'noul', noul: 0.7 } },
    usage: { input_tokens: 3, output_tokens: 0 },
  },
} as const;

/** Replays one outcome per attempt and records the requests it was given. */
function scriptedTransport(outcomes: Array<TransportOutcome | Error>) {
  const requests: DecisionRequest[] = [];
  const transport: DecisionTransport = {
    name: 'scripted',
    async send(request) {
      requests.push(request);
      const next = outcomes[Math.min(requests.length - 1, outcomes.length - 1)];
      if (next instanceof Error) throw next;
      if (next === undefined) throw new Error('script exhausted');
      return next;
    },
  };
  return { transport, requests };
}

const unavailable: TransportOutcome = {
  ok: false,
  reason: 'server_error',
  message: 'HTTP 503',
  status: 503,
  retryable: true,
};

describe('DecisionClient', () => {
  it('never throws: a transport that throws becomes a client_error skip', async () => {
    const { transport } = scriptedTransport([new Error('socket exploded')]);
    const result = await new DecisionClient({ transport }).decide({ state: 's', questions });
    expect(result).toMatchObject({ skipped: true, reason: 'client_error', attempts: 1 });
    if (result.skipped) expect(result.message).toContain('socket exploded');
  });

  it('turns a circular state into a client_error skip', async () => {
    const state: Record<string, unknown> = {};
    state.loop = state;
    const result = await new DecisionClient({ transport: createStubTransport() }).decide({
      state,
      questions,
    });
    expect(result).toMatchObject({ skipped: true, reason: 'client_error', attempts: 0 });
    if (result.skipped) expect(result.message).toBe('invalid state: the state contains a circular reference');
  });

  it('uses the client default model unless the call names one', async () => {
    const { transport, requests } = scriptedTransport([answered]);
    const client = new DecisionClient({ transport, model: 'arbiter-latest' });
    await client.decide({ state: 's', questions });
    await client.decide({ state: 's', questions, model: 'arbiter-1.0.0' });
    expect(requests.map((request) => request.model)).toEqual(['arbiter-latest', 'arbiter-1.0.0']);
  });

  it('stops retrying after maxRetries', async () => {
    const { transport, requests } = scriptedTransport([unavailable]);
    const result = await new DecisionClient({ transport, retry: { maxRetries: 2 }, random: () => 0 }).decide({
      state: 's',
      questions,
    });
    expect(result).toMatchObject({ skipped: true, reason: 'server_error', status: 503, attempts: 3 });
    if (result.skipped) expect(result.message).toBe('scripted: HTTP 503 (gave up after 3 attempts)');
    expect(requests).toHaveLength(3);
  });

  it('does not start a backoff wait that would end past the budget', async () => {
    const { transport, requests } = scriptedTransport([unavailable]);
    const clock = new ManualClock();
    const client = new DecisionClient({
      transport,
      budgetMs: 200,
      retry: { baseDelayMs: 10_000, maxDelayMs: 10_000 },
      random: () => 0.5,
      clock,
    });
    const result = await client.decide({ state: 's', questions });
    expect(result).toMatchObject({ skipped: true, reason: 'server_error', attempts: 1, latencyMs: 0 });
    if (result.skipped) expect(result.message).toContain('no budget left for another attempt');
    expect(requests).toHaveLength(1);
    expect(clock.fired).toEqual([]);
    expect(clock.pending).toEqual([]);
  });

  it('redacts secrets from skip messages', async () => {
    const leak = `DB_PASSWORD=${'p4ss'.repeat(4)}`;
    const { transport } = scriptedTransport([
      { ok: false, reason: 'client_error', message: `echo: ${leak}`, retryable: false },
    ]);
    const result = await new DecisionClient({ transport }).decide({ state: 's', questions });
    expect(result).toMatchObject({
      skipped: true,
      message: 'scripted: echo: DB_PASSWORD=[REDACTED:secret-assignment]',
    });
  });

  it('exposes the request it would send, redacted and validated, for dry runs', () => {
    const client = new DecisionClient({ transport: createStubTransport() });
    expect(client.prepareRequest({ state: { api_key: 'abc123' }, questions })).toEqual({
      state: { api_key: '[REDACTED:secret-field]' },
      questions,
    });
    expect(client.prepareRequest({ state: 's', questions: {} })).toBe(
      'invalid request: questions: questions must not be empty',
    );
  });

  it('resolves to answers or a named skip whatever the transport returns', async () => {
    const failure = fc.record({
      ok: fc.constant(false as const),
      reason: fc.constantFrom(
        'client_error',
        'server_error',
        'rate_limited',
        'network',
        'missing_key',
        'aborted',
      ),
      message: fc.string(),
      retryable: fc.boolean(),
      retryAfterMs: fc.option(fc.nat(50), { nil: undefined }),
    });
    const response = fc.record({ ok: fc.constant(true as const), body: fc.jsonValue() });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(failure, response, fc.constant(answered)), { minLength: 1, maxLength: 4 }),
        async (script) => {
          const { transport } = scriptedTransport(script as TransportOutcome[]);
          const clock = new ManualClock();
          const client = new DecisionClient({ transport, random: () => 0, clock });
          const result = await clock.runUntilSettled(client.decide({ state: 's', questions }), {
            leave: DEFAULT_BUDGET_MS,
          });
          if (result.skipped) {
            expect(SKIP_REASONS).toContain(result.reason);
            expect(typeof result.message).toBe('string');
          } else {
            expect(result.answers.urgent.type).toBe('noul');
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a budget that is not a positive number', () => {
    expect(() => new DecisionClient({ transport: createStubTransport(), budgetMs: 0 })).toThrow(RangeError);
    expect(() => new DecisionClient({ transport: createStubTransport(), budgetMs: Number.NaN })).toThrow(
      RangeError,
    );
  });
});
