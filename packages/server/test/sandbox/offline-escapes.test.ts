import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

// The offline model's `@shell` over the real HTTP API of a real server, in the real bubblewrap. The
// tool gate only audits here (shadow mode), so what stops each attempt is the sandbox alone.
const marker = `${process.pid}${Date.now() % 100_000}`;
let server: UhpTestServer;
let loopback: Awaited<ReturnType<typeof startLoopbackTarget>>;
let victimFile: string;
const victimSecret = `bob-private-${marker}`;

// biome-ignore lint/suspicious/noExplicitAny: responses are read as JSON.
const toolOutputs = (response: any): string[] =>
  response.output
    .filter((item: { type: string }) => item.type === 'function_call_output')
    .map((item: { output: string }) => item.output);

async function shellAs(key: string, command: string, extra: Record<string, unknown> = {}) {
  const result = await call(server.baseUrl, '/v1/responses', {
    method: 'POST',
    key,
    body: { input: `@shell ${command}`, ...extra },
  });
  expect(result.status).toBe(200);
  return result.json;
}

beforeAll(async () => {
  loopback = await startLoopbackTarget();
  server = await startUhpTestServer({
    toolGating: { mode: 'shadow' },
    sandbox: { commandLimits: { processes: 32 } },
  });
  const bob = await call(server.baseUrl, '/v1/responses', {
    method: 'POST',
    key: TEST_KEYS.bob,
    body: { input: `@write secret.txt <<<${victimSecret}>>>` },
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
  await loopback.close();
});

describe("escapes from the offline model's @shell", () => {
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
      const response = await shellAs(TEST_KEYS.alice, attempt.command(targets()));
      const [output] = toolOutputs(response);
      expect(output).toMatch(/^\[exit \d+\]/);
      await attempt.verify(output ?? '', targets());
    });

  it('contains a fork bomb: the server keeps answering and nothing of the bomb survives', async () => {
    const response = await shellAs(TEST_KEYS.alice, FORK_BOMB);
    expect(toolOutputs(response)[0]).toMatch(/Cannot fork|Resource temporarily unavailable/);
    expect((await call(server.baseUrl, '/v1/models', { key: TEST_KEYS.alice })).status).toBe(200);
    const after = await shellAs(TEST_KEYS.alice, 'echo still-serving');
    expect(toolOutputs(after)[0]).toBe('[exit 0]\nstill-serving\n');
    await eventually(() => sandboxProcesses().length === 0);
  });
});
