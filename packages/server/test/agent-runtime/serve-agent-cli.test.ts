import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AuditLog } from '@arbiter/tool-gate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ScriptedChatServer,
  startScriptedChatServer,
  toolMessages,
} from '../../../engine/test/support/scripted-chat-server.js';

// The real `arbiter serve` (run `npx tsc -b` first) with a configuration file naming a local
// OpenAI-compatible model, the way docs/harnesses.md configures Ollama.
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const cli = path.join(repo, 'packages', 'cli', 'bin', 'arbiter.js');
const SECRET = 'sk-cli-test-provider-key-0123456789';
let provider: ScriptedChatServer;
let child: ChildProcess;
let baseUrl: string;
let dataDir: string;
let stderr = '';

beforeAll(async () => {
  provider = await startScriptedChatServer(
    (request) => {
      if (toolMessages(request).length === 0)
        return { toolCalls: [{ name: 'shell', arguments: { command: 'ls -la' } }] };
      return { text: 'Listing needs approval here.', usage: { prompt_tokens: 30, completion_tokens: 6 } };
    },
    { models: ['fake-model'] },
  );
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-serve-agent-'));
  const config = path.join(dataDir, 'arbiter.yaml');
  fs.writeFileSync(
    config,
    [
      'agent:',
      '  defaultModel: llama-local',
      '  models:',
      `    - { id: llama-local, provider: openai-compatible, baseURL: "${provider.baseURL}", upstreamModel: "llama3.1:8b", apiKeyEnv: LOCAL_LLM_KEY }`,
      'toolGating:',
      '  policy: { ask: ["Bash(ls:*)"] }',
    ].join('\n'),
  );
  child = spawn(
    process.execPath,
    [cli, 'serve', '--no-auth', '--port', '0', '--data-dir', dataDir, '--config', config],
    {
      env: { ...process.env, LOCAL_LLM_KEY: SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
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

describe('arbiter serve with an agent section', () => {
  it('runs a task on the configured provider, refuses the ASK of the static policy, and keeps the key out', async () => {
    const response = await fetch(`${baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'uhp-version': '2026-08-11' },
      body: JSON.stringify({ input: 'list the files' }),
    });
    const body = (await response.json()) as { status: string; model: string };
    expect(body.status).toBe('completed');
    expect(body.model).toBe('llama-local');
    expect(provider.requests[0]?.authorization).toBe(`Bearer ${SECRET}`);
    expect(toolMessages(provider.requests[1])[0]).toMatch(
      /^refused by the tool gate: this call needs a person's approval/,
    );
    const records = (await new AuditLog(path.join(dataDir, 'uhp', 'gate-audit.jsonl')).read()).map(
      (entry) => entry.record as { effective: string; policy: { rule: string } },
    );
    expect(records.at(-1)).toMatchObject({ effective: 'ASK', policy: { rule: 'Bash(ls:*)' } });
    expect(JSON.stringify(body)).not.toContain(SECRET);
    expect(stderr).not.toContain(SECRET);
    // With no sandbox section, the server says at start that bubblewrap isolates task programs.
    expect(stderr).toMatch(/^Sandbox: bubblewrap \(.*\); task programs run as unprivileged ids/m);
  });
});
