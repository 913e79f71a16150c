import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  type ScriptedChatServer,
  startScriptedChatServer,
} from '../../../engine/test/support/scripted-chat-server.js';
import { loadServerConfig } from '../../src/config/server-config.js';
import { call } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

const key = TEST_KEYS.alice;
let provider: ScriptedChatServer;
let server: UhpTestServer;
beforeAll(async () => {
  provider = await startScriptedChatServer(
    (request) => {
      const messages: { role: string; content: unknown }[] = request.body.messages;
      const last = messages.at(-1);
      if (last?.role === 'user' && String(last.content).includes('sandbox'))
        return { toolCalls: [{ name: 'shell', arguments: { command: 'env; cat /proc/net/dev' } }] };
      if (last?.role === 'tool') return { text: 'inspected' };
      return { text: 'hello from the local model', usage: { prompt_tokens: 9, completion_tokens: 5 } };
    },
    { models: ['fake-model'] },
  );
  // The configuration docs/harnesses.md shows for Ollama: keyless, OpenAI-compatible, local.
  server = await startUhpTestServer({
    agent: {
      models: [
        {
          id: 'llama-local',
          provider: 'openai-compatible',
          baseURL: provider.baseURL,
          upstreamModel: 'llama3.1:8b',
        },
        {
          id: 'gpt-hosted',
          provider: 'openai',
          upstreamModel: 'gpt-4.1-mini',
          apiKeyEnv: 'ARBITER_TEST_UNSET_KEY',
        },
      ],
      defaultModel: 'llama-local',
    },
    // The gate asks before `env` (it prints every variable, secrets included: exposure); what this
    // file checks is the sandbox around the command, so the gate only audits here.
    toolGating: { mode: 'shadow' },
  });
});
afterAll(async () => {
  await server.close();
  await provider.close();
});

describe('the agent base configured with provider models', () => {
  it('lists the models with availability from the key, and runs a task on the default model', async () => {
    const models = await call(server.baseUrl, '/v1/models', { key });
    const text = JSON.stringify(models.json);
    expect(text).toContain('llama-local');
    expect(text).toContain('gpt-hosted');
    const result = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key,
      body: { input: 'hi' },
    });
    expect(result.json.status).toBe('completed');
    expect(result.json.usage).toEqual({ input_tokens: 9, output_tokens: 5, total_tokens: 14 });
    expect(provider.requests[0]?.body.model).toBe('llama3.1:8b');
    // The model whose key is missing is not used: the request falls back and says so.
    const fallback = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key,
      body: { input: 'hi', model: 'gpt-hosted' },
    });
    expect(fallback.json.metadata).toMatchObject({ requested_model: 'gpt-hosted', model_fallback: true });
  });

  it('runs shell commands in the bubblewrap sandbox, without the server environment', async () => {
    process.env.ARBITER_TEST_PROVIDER_SECRET = 'sk-server-side-secret-never-in-tools';
    try {
      const result = await call(server.baseUrl, '/v1/responses', {
        method: 'POST',
        key,
        body: { input: 'inspect the sandbox environment' },
      });
      expect(result.json.status).toBe('completed');
      const output = result.json.output.find(
        (item: { type: string }) => item.type === 'function_call_output',
      );
      expect(output.output).toMatch(/^\[exit 0\]/);
      expect(output.output).not.toContain('sk-server-side-secret');
      // Only loopback in the sandbox's network namespace.
      const interfaces = output.output
        .split('\n')
        .filter((line: string) => /^\s*\w+:\s+\d+/.test(line))
        .map((line: string) => line.split(':')[0]?.trim());
      expect(interfaces).toEqual(['lo']);
    } finally {
      delete process.env.ARBITER_TEST_PROVIDER_SECRET;
    }
  });

  it('reads the agent and toolGating sections of the configuration file and names a bad field', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-agent-config-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const good = path.join(dir, 'good.yaml');
    fs.writeFileSync(
      good,
      [
        'agent:',
        '  models:',
        '    - { id: llama, provider: openai-compatible, baseURL: "http://127.0.0.1:11434/v1", upstreamModel: "llama3.1:8b" }',
        'toolGating:',
        '  allowAsk: false',
        '  policy: { deny: ["Bash(curl:*)"] }',
      ].join('\n'),
    );
    const config = loadServerConfig(good);
    expect(config.agent?.models[0]).toMatchObject({ id: 'llama', provider: 'openai-compatible' });
    // With no `sandbox` section the server sandboxes every program (ProcessSandbox's default).
    expect(config.sandbox).toBeUndefined();
    expect(config.toolGating?.policy?.deny).toEqual(['Bash(curl:*)']);
    const bad = path.join(dir, 'bad.yaml');
    fs.writeFileSync(
      bad,
      'agent:\n  models:\n    - { id: x, provider: openai-compatible, upstreamModel: m }\n',
    );
    expect(() => loadServerConfig(bad)).toThrow(/an openai-compatible model needs baseURL/);
    // The old per-base switch is refused with a pointer, never silently ignored.
    const legacy = path.join(dir, 'legacy.yaml');
    fs.writeFileSync(legacy, 'agent:\n  sandbox: off\n');
    expect(() => loadServerConfig(legacy)).toThrow(/agent\.sandbox: moved: .*top-level `sandbox` section/);
    const unsafe = path.join(dir, 'unsafe.yaml');
    fs.writeFileSync(unsafe, 'sandbox:\n  mode: off-unsafe\n');
    expect(loadServerConfig(unsafe).sandbox?.mode).toBe('off-unsafe');
    fs.writeFileSync(unsafe, 'sandbox:\n  mode: off\n');
    expect(() => loadServerConfig(unsafe)).toThrow(/sandbox\.mode/);
  });
});
