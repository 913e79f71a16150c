import fs from 'node:fs';
import path from 'node:path';
import type { GateAuditRecord } from '@arbiter/harness-server';
import { OfflineAgentRuntime } from '@arbiter/harness-server';
import { AgentRuntime } from '@arbiter/harness-server/agent';
import { AuditLog } from '@arbiter/tool-gate';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type ScriptedChatRequest,
  type ScriptedChatServer,
  type ScriptedReply,
  startScriptedChatServer,
  toolMessages,
} from '../../../engine/test/support/scripted-chat-server.js';
import { call, principalCalls, streamTask } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';
import { startLoopbackMcpServer } from './fixtures/loopback-mcp-server.js';

const key = TEST_KEYS.alice;
const API_KEY = 'sk-fake-provider-secret-0123456789';
let provider: ScriptedChatServer;
let server: UhpTestServer;
let script: (request: ScriptedChatRequest, index: number) => ScriptedReply = () => ({ text: 'unused' });

beforeAll(async () => {
  provider = await startScriptedChatServer((request, index) => script(request, index), {
    models: ['fake-model'],
  });
  server = await startUhpTestServer({
    createRuntimes: (gate) => [
      new AgentRuntime({
        offline: new OfflineAgentRuntime({ chunkDelayMs: 0, gate }),
        gate,
        models: [
          {
            id: 'fake',
            provider: 'openai-compatible',
            baseURL: provider.baseURL,
            upstreamModel: 'fake-model',
            apiKeyEnv: 'FAKE_PROVIDER_KEY',
          },
        ],
        env: { FAKE_PROVIDER_KEY: API_KEY },
      }),
    ],
  });
});
afterAll(async () => {
  await server.close();
  await provider.close();
});
beforeEach(() => {
  provider.requests.length = 0;
});

const calls = principalCalls(() => server.baseUrl, key);
const post = (body: Record<string, unknown>) => calls.post({ model: 'fake', ...body });

/** Replies in order, one per model call from now on; the last one repeats. */
function replies(...sequence: ScriptedReply[]): (request: ScriptedChatRequest) => ScriptedReply {
  let calls = 0;
  return () => sequence[Math.min(calls++, sequence.length - 1)] ?? { text: 'done' };
}

const textFile = (filename: string, text: string) => ({
  type: 'input_file',
  filename,
  file_data: `data:text/plain;base64,${Buffer.from(text).toString('base64')}`,
});

async function auditRecords(): Promise<GateAuditRecord[]> {
  const log = new AuditLog<GateAuditRecord>(path.join(server.dataDir, 'uhp', 'gate-audit.jsonl'));
  expect((await log.verify()).ok).toBe(true);
  return (await log.read()).map((entry) => entry.record);
}

describe('the agent base on an OpenAI-compatible provider', () => {
  it('runs a multi-step task that reads, writes and edits workspace files, with the provider usage', async () => {
    script = replies(
      {
        reasoning: 'Read the notes first.',
        toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }],
        usage: { prompt_tokens: 100, completion_tokens: 10 },
      },
      {
        toolCalls: [{ name: 'write', arguments: { path: 'summary.txt', content: 'alpha, beta' } }],
        usage: { prompt_tokens: 150, completion_tokens: 20 },
      },
      {
        toolCalls: [
          { name: 'edit', arguments: { path: 'summary.txt', old_string: 'beta', new_string: 'beta, gamma' } },
        ],
        usage: { prompt_tokens: 200, completion_tokens: 15 },
      },
      { text: 'Summary written to summary.txt.', usage: { prompt_tokens: 250, completion_tokens: 7 } },
    );
    const result = await post({
      instructions: 'Be brief.',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Summarise notes.txt into summary.txt' },
            textFile('notes.txt', 'alpha\nbeta\ngamma\n'),
          ],
        },
      ],
    });
    expect(result.json.status).toBe('completed');
    expect(result.json.usage).toEqual({ input_tokens: 700, output_tokens: 52, total_tokens: 752 });
    const types = result.json.output.map((item: { type: string }) => item.type);
    expect(types.filter((type: string) => type === 'function_call')).toHaveLength(3);
    expect(types).toContain('reasoning');
    expect(JSON.stringify(result.json.output)).toContain('Summary written to summary.txt.');

    // The model saw each tool's real result, in order, and the key only in the Authorization header.
    expect(provider.requests).toHaveLength(4);
    expect(toolMessages(provider.requests[1])).toEqual(['alpha\nbeta\ngamma\n']);
    expect(toolMessages(provider.requests[3])).toEqual([
      'alpha\nbeta\ngamma\n',
      'wrote 11 bytes to summary.txt',
      'replaced 1 occurrence(s) in summary.txt',
    ]);
    expect(provider.requests[0]?.authorization).toBe(`Bearer ${API_KEY}`);
    const system = provider.requests[0]?.body.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toContain('Be brief.');
    expect(
      provider.requests[0]?.body.tools
        .map((tool: { function: { name: string } }) => tool.function.name)
        .sort(),
    ).toEqual(['edit', 'list', 'read', 'search', 'shell', 'write']);

    const session = result.json.metadata.session_id;
    const workspaceFile = path.join(server.dataDir, 'uhp', 'sessions', session, 'workspace', 'summary.txt');
    expect(fs.readFileSync(workspaceFile, 'utf8')).toBe('alpha, beta, gamma');
    expect(JSON.stringify(result.json)).not.toContain(API_KEY);
  });

  it('refuses a destructive command: the model reads the refusal and the audit log records it', async () => {
    script = replies(
      {
        toolCalls: [{ name: 'shell', arguments: { command: 'rm -rf ~' } }],
        usage: { prompt_tokens: 50, completion_tokens: 5 },
      },
      { text: 'I will not delete the home directory.', usage: { prompt_tokens: 60, completion_tokens: 8 } },
    );
    const result = await post({ input: 'clean up the disk' });
    expect(result.json.status).toBe('completed');
    const [refusal] = toolMessages(provider.requests[1]);
    expect(refusal).toMatch(/^refused by the tool gate: .*destructive/);
    const output = result.json.output.find((item: { type: string }) => item.type === 'function_call_output');
    expect(output.output).toBe(refusal);
    const records = (await auditRecords()).filter((record) => record.response_id === result.json.id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      tool: 'Bash',
      effective: 'DENY',
      session_id: result.json.metadata.session_id,
    });
  });

  it('ends incomplete when the step budget or the time budget runs out', async () => {
    script = () => ({
      toolCalls: [{ name: 'list', arguments: { path: '.' } }],
      usage: { prompt_tokens: 10, completion_tokens: 3 },
    });
    const steps = await post({ input: 'list forever', max_step: 2 });
    expect(steps.json.status).toBe('incomplete');
    expect(steps.json.incomplete_details).toEqual({ reason: 'max_step' });
    expect(steps.json.output.filter((item: { type: string }) => item.type === 'function_call')).toHaveLength(
      2,
    );

    script = replies(
      { toolCalls: [{ name: 'shell', arguments: { command: 'sleep 30' } }] },
      { text: 'too late' },
    );
    const started = Date.now();
    const timed = await post({ input: 'wait for the build', timeout_seconds: 1 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(timed.json.status).toBe('incomplete');
    expect(timed.json.incomplete_details).toEqual({ reason: 'timeout_seconds' });
  });

  it('cancels a task in the middle of a slow shell command', async () => {
    script = replies(
      { toolCalls: [{ name: 'shell', arguments: { command: 'sleep 30; echo finished > late.txt' } }] },
      { text: 'never' },
    );
    const started = await post({ input: 'run the slow job', background: true });
    expect(started.json.status).toBe('in_progress');
    // Wait until the shell tool is running: its call item is in the response.
    for (let attempt = 0; attempt < 200; attempt++) {
      const current = await call(server.baseUrl, `/v1/responses/${started.json.id}`, { key });
      if (current.json.output.some((item: { type: string }) => item.type === 'function_call')) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const before = Date.now();
    const cancelled = await call(server.baseUrl, `/v1/responses/${started.json.id}/cancel`, {
      method: 'POST',
      key,
    });
    expect(cancelled.json.status).toBe('cancelled');
    expect(Date.now() - before).toBeLessThan(3_000);
    expect(provider.requests).toHaveLength(1);
    const workspace = path.join(
      server.dataDir,
      'uhp',
      'sessions',
      started.json.metadata.session_id,
      'workspace',
    );
    expect(fs.existsSync(path.join(workspace, 'late.txt'))).toBe(false);
  });

  it('continues a session: the model receives the earlier turns with their tool calls and results', async () => {
    script = replies(
      { toolCalls: [{ name: 'write', arguments: { path: 'word.txt', content: 'heron' } }] },
      { text: 'Saved the code word.', usage: { prompt_tokens: 20, completion_tokens: 6 } },
    );
    const first = await post({ input: 'Save the code word heron in word.txt.' });
    expect(first.json.status).toBe('completed');
    script = replies({ text: 'heron', usage: { prompt_tokens: 40, completion_tokens: 1 } });
    const second = await post({ input: 'What was the code word?', previous_response_id: first.json.id });
    expect(second.json.status).toBe('completed');
    const messages = provider.requests[2]?.body.messages.filter(
      (message: { role: string }) => message.role !== 'system',
    );
    const callId = provider.requests[1]?.body.messages.find(
      (message: { role: string }) => message.role === 'tool',
    )?.tool_call_id;
    expect(messages).toEqual([
      { role: 'user', content: 'Save the code word heron in word.txt.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: callId,
            type: 'function',
            function: { name: 'write', arguments: JSON.stringify({ path: 'word.txt', content: 'heron' }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: callId, content: 'wrote 5 bytes to word.txt' },
      // The text as the user saw it, with the runner's note of the files the turn produced.
      { role: 'assistant', content: 'Saved the code word.\n\nFiles: word.txt' },
      { role: 'user', content: 'What was the code word?' },
    ]);
  });

  it('reports usage as null when the provider sends none, and a 402 as a provider_error that says what to do', async () => {
    script = replies({ text: 'no usage here' });
    const unknown = await post({ input: 'say something' });
    expect(unknown.json.status).toBe('completed');
    expect(unknown.json.usage).toBeNull();

    script = replies({ status: 402 });
    const refused = await post({ input: 'say something', max_output_tokens: 100_000 });
    expect(refused.json.status).toBe('failed');
    expect(refused.json.error).toMatchObject({ code: 'provider_error' });
    expect(refused.json.error.message).toContain('max_output_tokens');
    expect(JSON.stringify(refused.json)).not.toContain(API_KEY);
  });

  it('a 401 that echoes the key reaches neither stderr nor the task: the error is redacted first', async () => {
    // Providers quote the key they were sent; a second key shape the redaction rules know is quoted too.
    const otherKey = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    script = replies({
      status: 401,
      error: { message: `Incorrect API key provided: ${API_KEY}. Also tried ${otherKey}.` },
    });
    const written: string[] = [];
    const originalWrite = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      return (originalWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
    // The SDK's default error handler prints with console.error, which the test runner intercepts
    // before it reaches process.stderr; both are watched.
    const consoleSpies = (['error', 'warn', 'log', 'info'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        written.push(
          args
            .map((arg) => (arg instanceof Error ? `${arg.stack} ${JSON.stringify(arg)}` : String(arg)))
            .join(' '),
        );
      }),
    );
    let refused: Awaited<ReturnType<typeof post>>;
    try {
      refused = await post({ input: 'say something' });
    } finally {
      process.stderr.write = originalWrite;
      for (const spy of consoleSpies) spy.mockRestore();
    }
    expect(refused.json.status).toBe('failed');
    expect(refused.json.error).toMatchObject({ code: 'provider_error' });
    expect(refused.json.error.message).toContain('HTTP 401');
    for (const secret of [API_KEY, otherKey]) {
      expect(JSON.stringify(refused.json)).not.toContain(secret);
      expect(written.join('')).not.toContain(secret);
    }
  });

  it('streams text deltas as UHP events', async () => {
    script = replies({ text: 'one two three', usage: { prompt_tokens: 5, completion_tokens: 3 } });
    const { events } = await streamTask(server.baseUrl, key, { model: 'fake', input: 'count', stream: true });
    const deltas = events
      .filter((event) => event.data.type === 'response.output_text.delta')
      .map((event) => event.data.delta);
    expect(deltas.join('')).toBe('one two three');
    expect(events.at(-1)?.data.type).toBe('response.completed');
  });

  it('offers the tools of an MCP server through the gate and returns their results to the model', async () => {
    const mcp = await startLoopbackMcpServer();
    try {
      const harness = (
        await call(server.baseUrl, '/v1/harnesses', {
          method: 'POST',
          key,
          body: { base: 'agent', default_model: 'fake', mcp_servers: [{ name: 'calc', url: mcp.url }] },
        })
      ).json;
      script = replies(
        { toolCalls: [{ name: 'mcp__calc__get_sum', arguments: { a: 2, b: 40 } }] },
        { text: 'The sum is 42.' },
      );
      const result = await post({
        input: 'add 2 and 40 with the calculator',
        metadata: { harness_id: harness.id },
      });
      expect(result.json.status).toBe('completed');
      expect(mcp.calls).toEqual([{ a: 2, b: 40 }]);
      const offered = provider.requests[0]?.body.tools.map(
        (tool: { function: { name: string } }) => tool.function.name,
      );
      expect(offered).toContain('mcp__calc__get_sum');
      expect(toolMessages(provider.requests[1])).toEqual(['42']);
      const records = (await auditRecords()).filter((record) => record.response_id === result.json.id);
      expect(records.map((record) => [record.tool, record.effective])).toEqual([
        ['mcp__calc__get_sum', 'ALLOW'],
      ]);
    } finally {
      await mcp.close();
    }
  });

  it('goes on without an unreachable MCP server and says so in the stream', async () => {
    const harness = (
      await call(server.baseUrl, '/v1/harnesses', {
        method: 'POST',
        key,
        body: {
          base: 'agent',
          default_model: 'fake',
          mcp_servers: [
            {
              name: 'gone',
              url: 'http://127.0.0.1:9/mcp?token=query-secret-1234',
              auth: 'bearer-secret-5678',
            },
          ],
        },
      })
    ).json;
    script = replies({ text: 'Done without it.' });
    const { events } = await streamTask(server.baseUrl, key, {
      input: 'use the gone server',
      stream: true,
      metadata: { harness_id: harness.id },
    });
    const warning = events.find((event) => event.data.type === 'error');
    expect(warning?.data).toMatchObject({ code: 'arbiter_mcp_unavailable' });
    expect(warning?.data.message).toContain('"gone"');
    expect(JSON.stringify(events)).not.toMatch(/query-secret-1234|bearer-secret-5678/);
    expect(events.at(-1)?.data.type).toBe('response.completed');
    const offered = provider.requests[0]?.body.tools.map(
      (tool: { function: { name: string } }) => tool.function.name,
    );
    expect(offered.some((name: string) => name.startsWith('mcp__'))).toBe(false);
  });
});
