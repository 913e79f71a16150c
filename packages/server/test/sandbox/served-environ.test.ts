import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ScriptedChatServer,
  startScriptedChatServer,
} from '../../../engine/test/support/scripted-chat-server.js';

// The real `arbiter serve` (run `npx tsc -b` first) started with a provider key and a server secret in
// its environment, as an operator starts it; a task's shell then goes after that environment through
// /proc, from the offline model and from the agent base. The gate only audits (shadow mode).
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const cli = path.join(repo, 'packages', 'cli', 'bin', 'arbiter.js');
const PROVIDER_KEY = 'sk-served-provider-key-5521';
const SERVER_SECRET = 'served-server-secret-9034';
let provider: ScriptedChatServer;
let child: ChildProcess;
let baseUrl: string;
let dataDir: string;
let attack = '';

beforeAll(async () => {
  provider = await startScriptedChatServer(
    (request) => {
      if (request.body.messages.at(-1)?.role === 'tool') return { text: 'done' };
      return { toolCalls: [{ name: 'shell', arguments: { command: attack } }] };
    },
    { models: ['fake-model'] },
  );
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-served-environ-'));
  const config = path.join(dataDir, 'arbiter.yaml');
  fs.writeFileSync(
    config,
    [
      'agent:',
      '  models:',
      `    - { id: fake, provider: openai-compatible, baseURL: "${provider.baseURL}", upstreamModel: m, apiKeyEnv: ARBITER_TEST_PROVIDER_KEY }`,
      'toolGating:',
      '  mode: shadow',
    ].join('\n'),
  );
  child = spawn(
    process.execPath,
    [cli, 'serve', '--no-auth', '--port', '0', '--data-dir', dataDir, '--config', config],
    {
      env: {
        ...process.env,
        ARBITER_TEST_PROVIDER_KEY: PROVIDER_KEY,
        ARBITER_TEST_SERVER_SECRET: SERVER_SECRET,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Arbiter listening on (\S+)/.exec(out);
      if (match?.[1]) resolve(`${match[1]}/api/harness`);
    });
    child.on('exit', (code) => reject(new Error(`arbiter serve exited with ${code}: ${stderr}`)));
  });
}, 30_000);
afterAll(async () => {
  // The server's shutdown still writes to its data directory: remove it only once it has exited.
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
  await provider?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Every route to the server's environment a shell has, the literal one and indirect ones. */
const environAttack = () =>
  [
    `cat /proc/${child.pid}/environ`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion the attack relies on.
    'P=/proc/$PPID/env; cat ${P}iron',
    'for f in /proc/[0-9]*/environ; do cat "$f"; done',
    `cat /proc/${child.pid}/task/*/environ`,
    'env',
  ].join('; ');

async function task(body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'uhp-version': '2026-08-11' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { status: string; output: { type: string; output?: string }[] };
  expect(json.status).toBe('completed');
  return json.output.find((item) => item.type === 'function_call_output')?.output ?? '';
}

describe("a task's shell against the environment of the real arbiter serve", () => {
  it('the secrets are there to steal: the server process holds them', () => {
    const environ = fs.readFileSync(`/proc/${child.pid}/environ`, 'utf8');
    expect(environ).toContain(SERVER_SECRET);
    expect(environ).toContain(PROVIDER_KEY);
  });

  it('the offline model cannot read them', async () => {
    const output = await task({ input: `@shell ${environAttack()}`, model: 'arbiter-offline' });
    expect(output).toMatch(/^\[exit \d+\]/);
    expect(output).not.toContain(SERVER_SECRET);
    expect(output).not.toContain(PROVIDER_KEY);
  });

  it('the agent base cannot read them', async () => {
    attack = environAttack();
    const output = await task({ input: 'read the environment', model: 'fake' });
    expect(output).toMatch(/^\[exit \d+\]/);
    expect(output).not.toContain(SERVER_SECRET);
    expect(output).not.toContain(PROVIDER_KEY);
    expect(provider.requests[0]?.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
  });
});
