import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInProcessGateClient } from '@arbiter/engine/builtin';
import { DEFAULT_TOOL_GATE_THRESHOLDS } from '@arbiter/tool-gate';
import { createToolGateAnalyser } from '@arbiter/tool-gate-analysis';
import { afterEach, describe, expect, it } from 'vitest';
import { type GateContext, HarnessToolGate } from './harness-tool-gate.js';
import { gatedWorkspaceCall, workspaceGrant } from './workspace-tool-call.js';

const client = createInProcessGateClient({ analyser: createToolGateAnalyser(DEFAULT_TOOL_GATE_THRESHOLDS) });
const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-gate-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function context(cwd: string, overrides: Partial<GateContext> = {}): GateContext {
  return {
    sessionId: 'sess_1',
    responseId: 'resp_1',
    callId: 'call_1',
    task: 'summarise notes.txt into summary.txt',
    cwd,
    grant: workspaceGrant([]),
    ...overrides,
  };
}

describe('HarnessToolGate', () => {
  it('refuses a destructive command with a reason the model can read and audits it with the run ids', async () => {
    const dir = tempDir();
    const gate = new HarnessToolGate(client, path.join(dir, 'audit.jsonl'));
    const refused = await gate.review(gatedWorkspaceCall('shell', { command: 'rm -rf ~' }), context(dir));
    expect(refused.allowed).toBe(false);
    expect(refused.verdict.effective).toBe('DENY');
    expect(refused.allowed ? '' : refused.refusal).toMatch(/^refused by the tool gate: .*destructive/);
    const allowed = await gate.review(
      gatedWorkspaceCall('write', { path: 'summary.txt', content: 'short' }),
      context(dir, { callId: 'call_2' }),
    );
    expect(allowed).toMatchObject({ allowed: true, verdict: { effective: 'ALLOW', tool: 'Write' } });

    const entries = await gate.auditLog.read();
    expect(entries.map((entry) => [entry.record.call_id, entry.record.effective, entry.record.tool])).toEqual(
      [
        ['call_1', 'DENY', 'Bash'],
        ['call_2', 'ALLOW', 'Write'],
      ],
    );
    expect(entries[0]?.record).toMatchObject({ session_id: 'sess_1', response_id: 'resp_1' });
    // Only the hash of the call is kept, never its arguments.
    expect(fs.readFileSync(gate.auditLog.path, 'utf8')).not.toContain('rm -rf');
    expect(await gate.auditLog.verify()).toMatchObject({ ok: true, entries: 2 });
  });

  it('refuses an ASK in an unattended run unless the configuration allows asks', async () => {
    const dir = tempDir();
    const call = { tool: 'mcp__demo__add', arguments: { a: 1, b: 2 } };
    const strict = new HarnessToolGate(client, path.join(dir, 'a.jsonl'));
    const asked = await strict.review(call, context(dir));
    expect(asked.verdict.effective).toBe('ASK');
    expect(asked.allowed ? '' : asked.refusal).toContain('unattended');
    const lenient = new HarnessToolGate(client, path.join(dir, 'b.jsonl'), { allowAsk: true });
    expect((await lenient.review(call, context(dir))).allowed).toBe(true);
  });

  it('applies the static policy before the decision service', async () => {
    const dir = tempDir();
    const gate = new HarnessToolGate(client, path.join(dir, 'audit.jsonl'), {
      policy: { deny: ['Bash(ls:*)'] },
    });
    const outcome = await gate.review(gatedWorkspaceCall('shell', { command: 'ls -la' }), context(dir));
    expect(outcome.allowed).toBe(false);
    expect(outcome.verdict.policy).toMatchObject({ decision: 'deny', source: 'static' });
  });

  it('guards git push inside the shell tool: force and protected branches are refused', () => {
    const repo = tempDir();
    execFileSync('git', ['init', '-q', '-b', 'work', repo]);
    execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', 'https://example.invalid/repo.git']);
    const gate = new HarnessToolGate(client, path.join(repo, '..', `${path.basename(repo)}.jsonl`));
    expect(gate.guardShellCommand('git push --force origin work', repo)).toMatch(
      /^refused by the git push guard/,
    );
    expect(gate.guardShellCommand('git push origin main', repo)).toMatch(/protected/);
    expect(gate.guardShellCommand('git push origin work', repo)).toBeNull();
    expect(gate.guardShellCommand('echo push', repo)).toBeNull();
  });

  it('maps workspace tools onto the gate vocabulary and leaves disabled tools out of the grant', () => {
    expect(gatedWorkspaceCall('edit', { path: 'a.txt', old: 'x', new: 'y' })).toEqual({
      tool: 'Edit',
      arguments: { file_path: 'a.txt', old: 'x', new: 'y' },
    });
    expect(workspaceGrant(['shell', 'write'], ['docs'])).toEqual(['LS', 'Read', 'Edit', 'Grep', 'mcp__docs']);
  });
});
