import { once } from 'node:events';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Answer,
  createHttpTransport,
  createInProcessTransport,
  createStubTransport,
  DecisionClient,
  type DecisionEngine,
  type EvaluateOptions,
} from '@arbiter/decision';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import {
  AuditLog,
  createToolGate,
  FilePermissionManager,
  TOOL_GATE_PACK,
  type ToolGateVerdict,
} from '../src/index.js';

const state = {
  tool: 'Bash',
  arguments: { command: 'npm test' },
  grant: ['Bash'],
  task: 'Fix the failing unit test.',
  cwd: '/work/project',
};

/** A decision engine that answers from a script and records what it was asked (the engine contract, not a provider). */
function scriptedEngine(answers: Record<string, Answer>) {
  const calls: EvaluateOptions[] = [];
  const engine: DecisionEngine = {
    specificationVersion: 'v1',
    engineId: 'scripted',
    async evaluate(options) {
      calls.push(options);
      return { answers, usage: { input_tokens: 0, output_tokens: 0 } };
    },
  };
  return { engine, calls };
}

const noul = (value: number): Answer => ({ type: 'noul', noul: value });
const disposition = (choice: string, confidence: number): Answer => ({
  type: 'choice',
  choice,
  confidence,
  probabilities: { allow: 0, deny: 0, ask: 0, [choice]: confidence },
});
const allowAnswers = {
  in_grant: noul(0.99),
  args_plausible: noul(0.99),
  on_task: noul(0.95),
  destructive: noul(0.01),
  exfil_risk: noul(0.01),
  disposition: disposition('allow', 0.9),
};

const clientFor = (engine: DecisionEngine) =>
  new DecisionClient({ transport: createInProcessTransport({ engine, model: 'scripted-1.0.0' }) });

let server: Server | undefined;
afterEach(async () => {
  if (server !== undefined) {
    server.close();
    await once(server, 'close');
    server = undefined;
  }
});

describe('createToolGate', () => {
  it('allows by rule 4 and records the pack, thresholds, answers and model', async () => {
    const { engine, calls } = scriptedEngine(allowAnswers);
    const gate = createToolGate({ client: clientFor(engine) });
    const verdict = await gate.check(state);
    expect(verdict).toMatchObject({
      verdict: 'ALLOW',
      effective: 'ALLOW',
      rule: 4,
      decided_by: 'gate',
      mode: 'enforce',
      skipped: false,
      skip_reason: null,
      model: 'scripted-1.0.0',
      tool: 'Bash',
      thresholds: TOOL_GATE_PACK.definition.thresholds,
      pack: { name: 'arbiter/tool-gate', version: '1.0.0', sha256: TOOL_GATE_PACK.sha256 },
    });
    expect(verdict.answers?.disposition?.choice).toBe('allow');
    expect(verdict.latency_ms).toBeGreaterThan(0);
    expect(verdict.call_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(verdict)).not.toContain('npm test');
    // The engine is told which pack asks, with its hash, and receives the six questions.
    expect(calls[0]?.pack).toEqual({
      name: 'arbiter/tool-gate',
      version: '1.0.0',
      sha256: TOOL_GATE_PACK.sha256,
    });
    expect(Object.keys(calls[0]?.questions ?? {})).toHaveLength(6);
  });

  it('denies by rule 2 on a destructive answer', async () => {
    const { engine } = scriptedEngine({ ...allowAnswers, destructive: noul(0.97) });
    const verdict = await createToolGate({ client: clientFor(engine) }).check(state);
    expect(verdict).toMatchObject({ verdict: 'DENY', rule: 2 });
  });

  it('denies by rule 1 without calling the service when the static policy denies', async () => {
    const { engine, calls } = scriptedEngine(allowAnswers);
    const gate = createToolGate({ client: clientFor(engine), policy: { deny: ['Bash(npm test:*)'] } });
    const verdict = await gate.check(state);
    expect(verdict).toMatchObject({
      verdict: 'DENY',
      effective: 'DENY',
      rule: 1,
      policy: { decision: 'deny', rule: 'Bash(npm test:*)', source: 'static' },
      answers: null,
      model: null,
    });
    expect(calls).toHaveLength(0);
  });

  it('denies by rule 1 on a remembered denial, and treats a remembered approval as the existing policy', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'arbiter-permissions-'));
    onTestFinished(() => rm(directory, { recursive: true, force: true }));
    const manager = new FilePermissionManager(join(directory, 'permissions.json'));
    await manager.remember('Bash(npm test)', 'deny');
    // Remembered decisions are the user's own policy: written whole, readable by nobody else.
    expect((await stat(join(directory, 'permissions.json'))).mode & 0o777).toBe(0o600);
    expect(await readdir(directory)).toEqual(['permissions.json']);
    const { engine, calls } = scriptedEngine(allowAnswers);
    const gate = createToolGate({ client: clientFor(engine), permissionManager: manager });
    expect(await gate.check(state)).toMatchObject({
      verdict: 'DENY',
      rule: 1,
      policy: { source: 'manager' },
    });
    expect(calls).toHaveLength(0);

    await manager.remember('Bash(npm test)', 'allow');
    const reloaded = new FilePermissionManager(join(directory, 'permissions.json'));
    const stub = createToolGate({
      client: new DecisionClient({ transport: createStubTransport() }),
      permissionManager: reloaded,
    });
    expect(await stub.check(state)).toMatchObject({
      verdict: 'ALLOW',
      rule: null,
      decided_by: 'policy',
      policy: { decision: 'allow', source: 'manager' },
    });
  });

  it("treats the stub's answers as no opinion: no decision without a policy", async () => {
    const gate = createToolGate({ client: new DecisionClient({ transport: createStubTransport() }) });
    const verdict = await gate.check(state);
    expect(verdict).toMatchObject({
      verdict: null,
      effective: null,
      rule: null,
      decided_by: 'none',
      model: 'stub',
    });
    expect(verdict.reason).toMatch(/no opinion/);
  });

  it('skips visibly on a 5xx from a real HTTP server and lets the existing policy apply (rule 6)', async () => {
    server = createServer((_request, response) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { type: 'server_error', code: 'engine_error', message: 'boom' } }),
      );
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const client = new DecisionClient({
      transport: createHttpTransport({ baseURL: `http://127.0.0.1:${port}`, apiKey: 'test-key' }),
      retry: { maxRetries: 0 },
    });
    const gate = createToolGate({ client, policy: { allow: ['Bash(npm test)'] } });
    const verdict = await gate.check(state);
    expect(verdict).toMatchObject({
      verdict: 'ALLOW',
      rule: 6,
      decided_by: 'policy',
      skipped: true,
      skip_reason: 'server_error',
      answers: null,
      model: null,
    });
    expect(verdict.skip_message).not.toContain('test-key');
  });

  it('skips with missing_key when no API key is configured and the server wants one', async () => {
    // A server with keys refuses a request without a credential.
    const keyed = createServer((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      response.end(
        '{"error":{"type":"authentication_error","code":"missing_credential","message":"no key"}}',
      );
    });
    keyed.listen(0, '127.0.0.1');
    await once(keyed, 'listening');
    const { port } = keyed.address() as AddressInfo;
    const client = new DecisionClient({
      transport: createHttpTransport({ baseURL: `http://127.0.0.1:${port}`, apiKey: undefined }),
    });
    const previous = process.env.ARBITER_API_KEY;
    delete process.env.ARBITER_API_KEY;
    try {
      const verdict = await createToolGate({ client }).check(state);
      expect(verdict).toMatchObject({ skipped: true, skip_reason: 'missing_key', rule: 6, verdict: null });
    } finally {
      if (previous !== undefined) process.env.ARBITER_API_KEY = previous;
      keyed.close();
    }
  });

  it('shadow mode records the verdict but lets the existing policy act', async () => {
    const { engine } = scriptedEngine({ ...allowAnswers, exfil_risk: noul(0.9) });
    const gate = createToolGate({ client: clientFor(engine), mode: 'shadow', policy: { allow: ['Bash'] } });
    const verdict = await gate.check(state);
    expect(verdict).toMatchObject({ mode: 'shadow', verdict: 'DENY', rule: 2, effective: 'ALLOW' });
    const none = await createToolGate({ client: clientFor(engine), mode: 'shadow' }).check(state);
    expect(none).toMatchObject({ verdict: 'DENY', effective: null });
  });

  it('threshold overrides make a pack with its own hash and change the outcome', async () => {
    const { engine } = scriptedEngine({ ...allowAnswers, destructive: noul(0.15) });
    const strict = createToolGate({ client: clientFor(engine), thresholds: { allow_risk_max: 0.1 } });
    expect(strict.pack.sha256).not.toBe(TOOL_GATE_PACK.sha256);
    expect(await strict.check(state)).toMatchObject({ verdict: null, thresholds: { allow_risk_max: 0.1 } });
    expect(await createToolGate({ client: clientFor(engine) }).check(state)).toMatchObject({
      verdict: 'ALLOW',
    });
  });

  it('appends every verdict to a verifiable audit log', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'arbiter-gate-audit-'));
    onTestFinished(() => rm(directory, { recursive: true, force: true }));
    const path = join(directory, 'audit.jsonl');
    const auditLog = new AuditLog<ToolGateVerdict>(path);
    const { engine } = scriptedEngine(allowAnswers);
    const gate = createToolGate({ client: clientFor(engine), auditLog });
    await gate.check(state);
    await gate.check({ ...state, arguments: { command: 'npm run lint' } });
    const entries = await auditLog.read();
    expect(entries.map((entry) => entry.record.verdict)).toEqual(['ALLOW', 'ALLOW']);
    expect(await auditLog.verify()).toMatchObject({ ok: true, entries: 2 });
  });

  it('rejects a state that is not a tool call with a specific message', async () => {
    const { engine } = scriptedEngine(allowAnswers);
    const gate = createToolGate({ client: clientFor(engine) });
    await expect(gate.check({ tool: '', arguments: {} })).rejects.toThrow(/tool: tool must name the tool/);
    await expect(gate.check({ tool: 'Bash', arguments: 'ls' } as never)).rejects.toThrow(/arguments/);
  });
});
