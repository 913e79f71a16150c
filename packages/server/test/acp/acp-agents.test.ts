import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AcpRuntime, OfflineAgentRuntime } from '@arbiter/harness-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostProcessesWith } from '../sandbox/escape-attempts.js';
import { call, until } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

const alice = TEST_KEYS.alice;
const agentScript = path.resolve(import.meta.dirname, '../fixtures/acp-test-agent.mjs');
const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');

let server: UhpTestServer;
let work: string;
let logFile: string;

interface LogEntry {
  pid: number;
  method: string;
  [key: string]: unknown;
}

/** The agent's request log; a line the agent is still writing is left for the next read. */
const agentLog = (): LogEntry[] =>
  fs.existsSync(logFile)
    ? fs
        .readFileSync(logFile, 'utf8')
        .split('\n')
        .slice(0, -1)
        .map((line) => JSON.parse(line) as LogEntry)
    : [];

beforeEach(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-acp-'));
  logFile = path.join(work, 'agent-log.jsonl');
  const stateDir = path.join(work, 'agent-state');
  fs.mkdirSync(stateDir);
  const args = [agentScript, '--log', logFile, '--state', stateDir];
  // The agent runs in the server's sandbox: it sees its script and the repository's node_modules
  // read-only, and writes its log and state to the scratch directory the test reads (any id may).
  fs.chmodSync(work, 0o777);
  fs.chmodSync(stateDir, 0o777);
  fs.writeFileSync(logFile, '');
  fs.chmodSync(logFile, 0o666);
  const sandbox = { readOnlyPaths: [repositoryRoot], writablePaths: [work] };
  server = await startUhpTestServer({
    createRuntimes: (gate) => [
      new OfflineAgentRuntime({ chunkDelayMs: 0, gate }),
      new AcpRuntime({
        gate,
        presets: true,
        cancelGraceMs: 500,
        // The server's environment holds a secret the agent must not see, and one it is given.
        env: {
          ...process.env,
          ARBITER_TEST_SERVER_SECRET: 'do-not-pass',
          TEST_AGENT_TOKEN: 'agent-credential',
        },
        agents: [
          {
            id: 'test-agent',
            label: 'ACP test agent (session/load)',
            command: process.execPath,
            args: [...args, '--load'],
            credentialEnv: ['TEST_AGENT_TOKEN'],
            sandbox,
          },
          { id: 'test-agent-no-load', command: process.execPath, args, sandbox },
          {
            id: 'needs-credential',
            command: process.execPath,
            args,
            credentialEnv: ['NOT_SET_ANYWHERE'],
            sandbox,
          },
        ],
      }),
    ],
  });
});

afterEach(async () => {
  await server.close();
  fs.rmSync(work, { recursive: true, force: true });
});

async function acpHarness(model = 'test-agent', extra: Record<string, unknown> = {}): Promise<string> {
  const created = await call(server.baseUrl, '/v1/harnesses', {
    method: 'POST',
    key: alice,
    body: { base: 'acp', name: 'ACP test', default_model: model, ...extra },
  });
  expect(created.status).toBe(200);
  return created.json.id as string;
}

async function task(harnessId: string | null, input: string, extra: Record<string, unknown> = {}) {
  return call(server.baseUrl, '/v1/responses', {
    method: 'POST',
    key: alice,
    body: { input, ...(harnessId ? { metadata: { harness_id: harnessId } } : {}), ...extra },
  });
}

// biome-ignore lint/suspicious/noExplicitAny: output items are read as JSON.
const items = (response: any, type: string) => response.output.filter((item: any) => item.type === type);
// biome-ignore lint/suspicious/noExplicitAny: output items are read as JSON.
const text = (response: any) => JSON.stringify(response.output);

describe('the acp base with a real ACP agent over stdio', () => {
  it('lists the agents and presets with availability from PATH and credentials', async () => {
    const harness = await acpHarness();
    const listed = await call(server.baseUrl, `/v1/harnesses/${harness}/models`, { key: alice });
    const availability = Object.fromEntries(
      listed.json.models.map((model: { id: string; available: boolean }) => [model.id, model.available]),
    );
    expect(availability).toMatchObject({ 'test-agent': true, 'needs-credential': false });
    expect(Object.keys(availability)).toEqual(
      expect.arrayContaining(['gemini-cli', 'claude-code', 'codex', 'opencode', 'goose']),
    );
    const runtime = new AcpRuntime({
      env: { PATH: path.dirname(process.execPath), GEMINI_API_KEY: 'k' },
      agents: [{ id: 'node-agent', command: path.basename(process.execPath) }],
    });
    const available = Object.fromEntries(runtime.models().map((model) => [model.id, model.available()]));
    // node is on that PATH and needs no credential; gemini has a key but no binary here.
    expect(available).toMatchObject({
      'node-agent': true,
      'gemini-cli': false,
      'claude-code': false,
      goose: false,
    });
    const unknown = await call(server.baseUrl, '/v1/harnesses', {
      method: 'POST',
      key: alice,
      body: { base: 'acp-like-thing' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.json.error.code).toBe('unsupported_base');
    const missingCredential = await task(await acpHarness('test-agent'), '@say hi', {
      model: 'needs-credential',
    });
    expect(missingCredential.json.metadata.model_fallback).toBe(true);
  });

  it("maps message, thought, plan and tool updates to output; files stay in the workspace; usage is the agent's", async () => {
    const harness = await acpHarness();
    const done = await task(
      harness,
      [
        '@think considering',
        '@plan look; write',
        '@say Hello from ACP',
        '@write notes.txt kept words',
        '@read notes.txt',
        '@escape',
        '@terminal',
        '@env ARBITER_TEST_SERVER_SECRET',
        '@env TEST_AGENT_TOKEN',
      ].join('\n'),
    );
    expect(done.json.status).toBe('completed');
    const output = text(done.json);
    expect(output).toContain('Hello from ACP');
    expect(output).toContain('considering');
    expect(output).toContain('[pending] look');
    expect(items(done.json, 'function_call').map((item: { name: string }) => item.name)).toEqual([
      'Write notes.txt',
      'Read notes.txt',
    ]);
    expect(output).toContain('kept words');
    expect(output).toMatch(/read refused: .*(absolute|leaves the workspace)/i);
    expect(output).toContain('terminal refused:');
    expect(output).not.toContain('got a terminal');
    expect(output).toContain('ARBITER_TEST_SERVER_SECRET=unset');
    expect(output).toContain('TEST_AGENT_TOKEN=set');
    expect(done.json.usage.output_tokens).toBeGreaterThan(5);
    const files = await call(server.baseUrl, `/v1/sessions/${done.json.metadata.session_id}/files`, {
      key: alice,
    });
    expect(files.json.files.map((file: { filename: string }) => file.filename)).toEqual(['notes.txt']);
    // The agent ran in the session workspace and got no terminal capability.
    const started = agentLog().find((entry) => entry.method === 'session/new');
    expect(String(started?.cwd)).toContain(done.json.metadata.session_id);
    expect(String(started?.cwd).startsWith(server.dataDir)).toBe(true);
  });

  it('answers permission requests with the tool gate: a destructive command is rejected and audited', async () => {
    const harness = await acpHarness();
    const done = await task(harness, '@run rm -rf ~/ /\n@say after');
    expect(done.json.status).toBe('completed');
    const answers = agentLog().filter((entry) => entry.method === 'permission-answer');
    expect(answers).toEqual([expect.objectContaining({ outcome: { outcome: 'selected', optionId: 'no' } })]);
    const [result] = items(done.json, 'function_call_output');
    expect(result.output).toMatch(/refused by the tool gate/);
    // A disabled tool is refused before the gate is asked.
    const noShell = await acpHarness('test-agent', { disabled_tools: ['shell'] });
    const blocked = await task(noShell, '@run ls');
    expect(items(blocked.json, 'function_call_output')[0].output).toContain('the tool "shell" is disabled');
    const audit = fs.readFileSync(path.join(server.dataDir, 'uhp', 'gate-audit.jsonl'), 'utf8');
    expect(audit).toContain(done.json.id);
    expect(audit).toContain('DENY');
  });

  it('cancels a running turn with session/cancel and ends the agent process', async () => {
    const harness = await acpHarness();
    const running = await task(harness, '@say working\n@sleep 30000\n@say never', { background: true });
    await until(async () =>
      agentLog().some((entry) => entry.method === 'session/prompt') ? true : undefined,
    );
    const cancelled = await call(server.baseUrl, `/v1/responses/${running.json.id}/cancel`, {
      method: 'POST',
      key: alice,
    });
    expect(cancelled.json.status).toBe('cancelled');
    expect(text(cancelled.json)).not.toContain('never');
    await until(async () =>
      agentLog().some((entry) => entry.method === 'session/cancel') ? true : undefined,
    );
    // The agent's own pid is its sandbox's: look for it on the host by its command line.
    await until(async () => (hostProcessesWith(logFile).length === 0 ? true : undefined));
  });

  it('continues a session with session/load, or with the earlier turns in the prompt when the agent cannot load', async () => {
    const loading = await acpHarness('test-agent');
    const first = await task(loading, '@say first turn');
    const second = await task(null, '@history', { previous_response_id: first.json.id });
    expect(second.json.error ?? null).toBeNull();
    expect(second.json.status).toBe('completed');
    expect(text(second.json)).toContain('prompts in session: 2; transcript in prompt: false');
    expect(agentLog().some((entry) => entry.method === 'session/load')).toBe(true);

    const plain = await acpHarness('test-agent-no-load');
    const one = await task(plain, '@say first turn');
    const two = await task(null, '@history', { previous_response_id: one.json.id });
    expect(text(two.json)).toContain('prompts in session: 1; transcript in prompt: true');
  });

  it('reports a crashing agent as a failed response with harness_error and a redacted stderr tail', async () => {
    const harness = await acpHarness();
    const crashed = await task(harness, '@say before\n@crash');
    expect(crashed.json.status).toBe('failed');
    expect(crashed.json.error.code).toBe('harness_error');
    expect(crashed.json.error.message).toMatch(/test-agent" exited with status 3/);
    expect(crashed.json.error.message).toContain('fatal: upstream said');
    expect(crashed.json.error.message).not.toContain('sk-proj-abcdefghijklmnop');
    expect(text(crashed.json)).toContain('before');
  });
});
