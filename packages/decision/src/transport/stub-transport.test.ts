import { describe, expect, it } from 'vitest';
import { DecisionClient } from '../client/decision-client.js';
import { choice, noul, score } from '../question/question-builders.js';
import { createStubTransport } from './stub-transport.js';

describe('stub transport', () => {
  const client = new DecisionClient({ transport: createStubTransport() });

  it('answers every question type with an abstaining, zero-confidence answer', async () => {
    const result = await client.decide({
      state: 'anything',
      questions: {
        urgent: noul('Is this urgent?'),
        verdict: choice('Allow this tool call?', ['allow', 'ask', 'deny']),
        team: choice('Which team?', { billing: null, technical: 'APIs and outages' }),
        severity: score('How severe?', ['low', null, 'high', 'critical']),
      },
    });
    expect(result).toEqual({
      skipped: false,
      model: 'stub',
      attempts: 1,
      latencyMs: expect.any(Number),
      usage: { input_tokens: 0, output_tokens: 0 },
      answers: {
        urgent: { type: 'noul', noul: 0.5, arbiter: { engine: 'stub', abstained: true } },
        verdict: {
          type: 'choice',
          choice: 'ask',
          confidence: 0,
          probabilities: { allow: 1 / 3, ask: 1 / 3, deny: 1 / 3 },
          arbiter: { engine: 'stub', abstained: true },
        },
        team: {
          type: 'choice',
          choice: 'billing',
          confidence: 0,
          probabilities: { billing: 0.5, technical: 0.5 },
          arbiter: { engine: 'stub', abstained: true },
        },
        severity: {
          type: 'score',
          score: 1.5,
          confidence: 0,
          probabilities: { '0': 0.25, '1': 0.25, '2': 0.25, '3': 0.25 },
          legend: { '0': 'low', '1': null, '2': 'high', '3': 'critical' },
          arbiter: { engine: 'stub', abstained: true },
        },
      },
    });
  });

  it('still rejects invalid questions, as a server would', async () => {
    const result = await client.decide({ state: 's', questions: {} });
    expect(result).toMatchObject({ skipped: true, reason: 'client_error' });
    if (result.skipped) expect(result.message).toContain('questions must not be empty');
  });
});
