import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ScriptedChatServer,
  startScriptedChatServer,
} from '../../../engine/test/support/scripted-chat-server.js';
import { call, streamTask } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

// A server whose sandbox cannot start (bwrap is not where the configuration says): every tool that
// runs a program is refused, visibly, and nothing runs unsandboxed instead.
const REFUSAL =
  /Refused: this server runs no programs, because its sandbox cannot start \(bubblewrap \(\/nonexistent\/bwrap\) is not installed\)/;
const agentScript = path.resolve(import.meta.dirname, '../fixtures/acp-test-agent.mjs');
let provider: ScriptedChatServer;
let server: UhpTestServer;

beforeAll(async () => {
  provider = await startScriptedChatServer(
    (request) => {
      const last = request.body.messages.at(-1);
      if (last?.role === 'tool') return { text: 'done' };
      return { toolCalls: [{ name: 'shell', arguments: { command: 'echo made > made.txt' } }] };
    },
    { models: ['fake-model'] },
  );
  server = await startUhpTestServer({
    sandbox: { bwrap: '/nonexistent/bwrap' },
    agent: {
      models: [{ id: 'fake', provider: 'openai-compatible', baseURL: provider.baseURL, upstreamModel: 'm' }],
    },
    acp: { presets: false, agents: [{ id: 'test-agent', command: process.execPath, args: [agentScript] }] },
  });
});
afterAll(async () => {
  await server.close();
  await provider.close();
});

const workspaceOf = (response: { metadata: { session_id: string } }) =>
  path.join(server.dataDir, 'uhp', 'sessions', response.metadata.session_id, 'workspace');
// biome-ignore lint/suspicious/noExplicitAny: responses are read as JSON.
const toolOutput = (response: any): string =>
  response.output.find((item: { type: string }) => item.type === 'function_call_output')?.output;

describe('tools that run programs when the sandbox cannot start', () => {
  it("refuses the offline model's @shell with a clear tool error and a warning event; file tools still work", async () => {
    const { events } = await streamTask(server.baseUrl, TEST_KEYS.alice, {
      input: '@shell echo made > made.txt\n@write kept.txt <<<file tools need no program>>>',
      model: 'arbiter-offline',
    });
    const final = events.at(-1)?.data.response;
    expect(toolOutput(final)).toMatch(REFUSAL);
    expect(toolOutput(final)).toMatch(/^error: /);
    expect(events.some((event) => event.data.code === 'arbiter_sandbox_unavailable')).toBe(true);
    expect(fs.existsSync(path.join(workspaceOf(final), 'made.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(workspaceOf(final), 'kept.txt'), 'utf8')).toBe(
      'file tools need no program',
    );
  });

  it("refuses the agent base's shell tool: the model reads the refusal, the client gets an event", async () => {
    const { events } = await streamTask(server.baseUrl, TEST_KEYS.alice, {
      input: 'make a file',
      model: 'fake',
    });
    const result = { json: events.at(-1)?.data.response };
    expect(toolOutput(result.json)).toMatch(REFUSAL);
    expect(events.some((event) => event.data.code === 'arbiter_sandbox_unavailable')).toBe(true);
    const toolMessage = provider.requests.at(-1)?.body.messages.at(-1);
    expect(JSON.stringify(toolMessage)).toMatch(/Refused: this server runs no programs/);
    expect(fs.existsSync(path.join(workspaceOf(result.json), 'made.txt'))).toBe(false);
  });

  it('fails an ACP task before the agent starts, saying why', async () => {
    const harness = await call(server.baseUrl, '/v1/harnesses', {
      method: 'POST',
      key: TEST_KEYS.alice,
      body: { base: 'acp', name: 'acp', default_model: 'test-agent' },
    });
    const result = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: TEST_KEYS.alice,
      body: { input: '@say hi', metadata: { harness_id: harness.json.id } },
    });
    expect(result.json.status).toBe('failed');
    expect(result.json.error).toMatchObject({ code: 'harness_error' });
    expect(result.json.error.message).toMatch(REFUSAL);
  });
});
