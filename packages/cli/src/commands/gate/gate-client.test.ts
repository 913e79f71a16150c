import { TOOL_GATE_PACK } from '@arbiter/tool-gate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ScriptedChatServer,
  startScriptedChatServer,
} from '../../../../engine/test/support/scripted-chat-server.js';
import { createGateClient, SECOND_OPINION_MODEL, SECOND_OPINION_URL } from './gate-client.js';

/** A chat-completions server that answers every prompt with the first label it offers, or "yes". */
let server: ScriptedChatServer;
let baseURL = '';

beforeAll(async () => {
  server = await startScriptedChatServer(({ prompt }) => {
    const token = /A:ask/.test(prompt) ? 'A' : (/([A-Z]):ask/.exec(prompt)?.[1] ?? 'no');
    return { top: [[token, 0.99]] };
  });
  baseURL = server.baseURL;
});

afterAll(() => server.close());

const call = (command: string) => ({
  state: { tool: 'Bash', arguments: { command }, grant: ['Bash'], task: 'Check the status.' },
  questions: TOOL_GATE_PACK.definition.questions,
  pack: {
    name: TOOL_GATE_PACK.definition.name,
    version: TOOL_GATE_PACK.definition.version,
    sha256: TOOL_GATE_PACK.sha256,
  },
});

describe('the in-process gate client and the second opinion named by the environment', () => {
  it('asks the named model about a call the analysis does not understand, and names it in the answers', async () => {
    const env = { [SECOND_OPINION_URL]: baseURL, [SECOND_OPINION_MODEL]: 'scripted' };
    const client = await createGateClient({ thresholds: TOOL_GATE_PACK.definition.thresholds, env });
    const before = server.requests.length;
    const result = await client.decide(call('frobctl status'));
    expect(server.requests.length - before).toBeGreaterThan(0);
    expect(result.skipped).toBe(false);
    if (result.skipped) return;
    expect(result.answers.disposition?.arbiter?.engine).toBe('builtin/tool-gate+scripted');
  });

  it('without the environment nothing is asked; half of it is an error that names the missing variable', async () => {
    const client = await createGateClient({ thresholds: TOOL_GATE_PACK.definition.thresholds, env: {} });
    const before = server.requests.length;
    await client.decide(call('frobctl status'));
    expect(server.requests.length).toBe(before);
    await expect(
      createGateClient({
        thresholds: TOOL_GATE_PACK.definition.thresholds,
        env: { [SECOND_OPINION_URL]: baseURL },
      }),
    ).rejects.toThrow(SECOND_OPINION_MODEL);
  });
});
