import { noul } from '@arbiter/decision';
import { describe, expect, it } from 'vitest';
import { createInProcessGateClient } from './in-process-gate-client.js';

describe('createInProcessGateClient', () => {
  it('answers in this process, unredacted, within the budget it is given', () => {
    const client = createInProcessGateClient({ budgetMs: 1234 });
    expect(client).toMatchObject({ budgetMs: 1234, transport: { name: 'in-process' } });
    const request = client.prepareRequest({
      state: { command: 'echo sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789' },
      questions: { safe: noul('Is the command safe?') },
    });
    expect(JSON.stringify(request)).toContain('sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789');
  });
});
