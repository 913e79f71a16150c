import { type EvaluateOptions, noul, type PackAnalyser } from '@arbiter/decision';
import { describe, expect, it } from 'vitest';
import { createInProcessGateClient } from './in-process-gate-client.js';

const SECRET = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789';

/** An analyser for one pack that records the states it was asked about. */
function recordingAnalyser(): PackAnalyser & { seen: unknown[] } {
  const seen: unknown[] = [];
  return {
    packName: 'recording',
    seen,
    accepts: () => true,
    evaluate(options: EvaluateOptions) {
      seen.push(options.state);
      return { answers: { safe: { type: 'noul', noul: 0.5 } }, usage: { input_tokens: 0, output_tokens: 0 } };
    },
  };
}

describe('createInProcessGateClient', () => {
  it('asks the given analysis in this process, with the state unredacted, within the budget it is given', async () => {
    const analyser = recordingAnalyser();
    const client = createInProcessGateClient({ analyser, budgetMs: 1234 });
    expect(client).toMatchObject({ budgetMs: 1234, transport: { name: 'in-process' } });
    const result = await client.decide({
      state: { command: `echo ${SECRET}` },
      questions: { safe: noul('Is the command safe?') },
      pack: { name: 'recording', version: '1.0.0' },
    });
    expect(result.skipped).toBe(false);
    expect(JSON.stringify(analyser.seen)).toContain(SECRET);
  });
});
