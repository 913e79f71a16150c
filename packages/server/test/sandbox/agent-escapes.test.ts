import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ScriptedChatServer,
  startScriptedChatServer,
} from '../../../engine/test/support/scripted-chat-server.js';
import { call } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';
import {
  ESCAPE_ATTEMPTS,
  type EscapeTargets,
  eventually,
  FORK_BOMB,
  sandboxProcesses,
  startLoopbackTarget,
} from './escape-attempts.js';

// The `agent` base's shell tool, driven by a model (the fake chat-completions server) that asks for
// each escape, over the real HTTP API, in the real bubblewrap; the gate only audits (shadow mode).
const COMMAND_PREFIX = 'run exactly: ';
const marker = `${process.pid}${(Date.now() + 7) % 100_000}`;
const victimSecret = `bob-private-agent-${marker}`;
let provider: ScriptedChatServer;
let server: UhpTestServer;
let loopback: Awaited<ReturnType<typeof startLoopbackTarget>>;
let victimFile: string;

beforeAll(async () => {
  loopback = await startLoopbackTarget();
  provider = await startScriptedChatServer(
    (request) => {
      const messages: { role: string; content: unknown }[] = request.body.messages;
      const last = messages.at(-1);
      if (last?.role === 'tool') return { text: 'done' };
      const text = String(last?.content ?? '');
      if (text.startsWith('search for: '))
        return { toolCalls: [{ name: 'search', arguments: { pattern: text.slice('search for: '.length) } }] };
      if (!text.startsWith(COMMAND_PREFIX)) return { text: 'nothing to run' };
      return { toolCalls: [{ name: 'shell', arguments: { command: text.slice(COMMAND_PREFIX.length) } }] };
    },
    { models: ['fake-model'] },
  );
  server = await startUhpTestServer({
    agent: {
      models: [{ id: 'fake', provider: 'openai-compatible', baseURL: provider.baseURL, upstreamModel: 'm' }],
      defaultModel: 'fake',
    },
    toolGating: { mode: 'shadow' },
    sandbox: { commandLimits: { processes: 32 } },
  });
  const bob = await call(server.baseUrl, '/v1/responses', {
    method: 'POST',
    key: TEST_KEYS.bob,
    body: { input: `@write secret.txt <<<${victimSecret}>>>`, model: 'arbiter-offline' },
  });
  victimFile = path.join(
    server.dataDir,
    'uhp',
    'sessions',
    bob.json.metadata.session_id,
    'workspace',
    'secret.txt',
  );
  expect(fs.readFileSync(victimFile, 'utf8')).toBe(victimSecret);
});

afterAll(async () => {
  await server.close();
  await provider.close();
  await loopback.close();
});

/** Has the model run `command` with the shell tool; returns what the tool gave back to the model. */
async function shellThroughModel(command: string): Promise<string> {
  const result = await call(server.baseUrl, '/v1/responses', {
    method: 'POST',
    key: TEST_KEYS.alice,
    body: { input: `${COMMAND_PREFIX}${command}` },
  });
  expect(result.json.status).toBe('completed');
  const item = result.json.output.find((entry: { type: string }) => entry.type === 'function_call_output');
  return item.output as string;
}

describe("escapes from the agent base's shell tool", () => {
  const targets = (): EscapeTargets => ({
    dataDir: server.dataDir,
    victimFile,
    victimSecret,
    loopbackUrl: loopback.url,
    loopbackHits: loopback.hits,
    marker,
  });
  for (const attempt of ESCAPE_ATTEMPTS)
    it(`fails to ${attempt.name}`, async () => {
      const output = await shellThroughModel(attempt.command(targets()));
      expect(output).toMatch(/^\[exit \d+\]/);
      await attempt.verify(output, targets());
    });

  it('contains a fork bomb: the server keeps answering and nothing of the bomb survives', async () => {
    expect(await shellThroughModel(FORK_BOMB)).toMatch(/Cannot fork|Resource temporarily unavailable/);
    expect((await call(server.baseUrl, '/v1/models', { key: TEST_KEYS.alice })).status).toBe(200);
    expect(await shellThroughModel('echo still-serving')).toBe('[exit 0]\nstill-serving\n');
    await eventually(() => sandboxProcesses().length === 0);
  });

  it('runs the search tool in the sandbox too, and it finds what the workspace holds', async () => {
    const written = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: TEST_KEYS.alice,
      body: { input: `@write notes/a.txt <<<needle-${marker}>>>`, model: 'arbiter-offline' },
    });
    const searched = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: TEST_KEYS.alice,
      body: { input: `search for: needle-${marker}`, previous_response_id: written.json.id, model: 'fake' },
    });
    expect(searched.json.status).toBe('completed');
    const item = searched.json.output.find(
      (entry: { type: string }) => entry.type === 'function_call_output',
    );
    expect(item.output).toBe(`./notes/a.txt:1:needle-${marker}\n`);
  });
});
