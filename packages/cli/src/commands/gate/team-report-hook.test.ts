import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TeamRecord } from '@arbiter/tool-gate/team';
import { writeCachedTeamPolicy } from '@arbiter/tool-gate/team-reporting';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_CORPUS } from '../../../../decision/test/support/secret-corpus.js';
// `arbiter gate hook …` in this process, with its own standard streams.
import { gateHookInProcess as hook } from '../../../test/support/gate-hook.js';
import { TeamContractServer } from '../../../test/support/team-contract-server.js';
import { flushTeamReports } from './team-report-flusher.js';
import { FLUSH_BACKOFF_MS, reportHookEvent } from './team-report-hook.js';

const launcher = resolve(import.meta.dirname, '../../../bin/arbiter.js');
const KEY = 'arb_test_member_key_0123456789abcdef';
/** A port nothing listens on: the team server is down. */
const DOWN = 'http://127.0.0.1:9';

let home: string;
const VARIABLES = ['ARBITER_HOME', 'ARBITER_GATE_REPORT', 'ARBITER_GATE_AUDIT', 'ARBITER_GATE_TASK'] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'team-hook-'));
  process.env.ARBITER_HOME = home;
  // Queue only: these tests send with an explicit flush, so nothing runs in the background.
  process.env.ARBITER_GATE_REPORT = 'queue';
  process.env.ARBITER_GATE_AUDIT = '';
  process.env.ARBITER_GATE_TASK = '';
});
afterEach(() => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  process.exitCode = undefined;
  rmSync(home, { recursive: true, force: true });
});

const reports = () => join(home, 'gate-reports');

function queued(): TeamRecord[] {
  try {
    return readFileSync(join(reports(), 'queue.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as TeamRecord);
  } catch {
    return [];
  }
}

const CWD = '/home/alice/src/acme-shop';
const before = {
  'claude-code': 'PreToolUse',
  codex: 'PreToolUse',
  gemini: 'BeforeTool',
} as const;
const after = {
  'claude-code': 'PostToolUse',
  codex: 'PostToolUse',
  gemini: 'AfterTool',
} as const;
const shellTool = { 'claude-code': 'Bash', codex: 'Bash', gemini: 'run_shell_command' } as const;

function event(host: keyof typeof before, when: 'before' | 'after', command: string): string {
  return JSON.stringify({
    session_id: `session-${host}`,
    hook_event_name: when === 'before' ? before[host] : after[host],
    tool_name: shellTool[host],
    tool_input: { command },
    cwd: CWD,
    ...(when === 'after' ? { tool_response: { stdout: 'ok' } } : {}),
  });
}

describe('gate hook --server', () => {
  it("answers exactly as without --server, whether the server is down or the queue can't be written", async () => {
    const inputs = [
      event('claude-code', 'before', 'kubectl apply -f k8s/'),
      event('claude-code', 'before', 'rm -rf ~'),
      event('claude-code', 'before', 'git status'),
      event('gemini', 'before', 'npm publish'),
      'not json',
    ];
    for (const input of inputs) {
      const host = input.includes('BeforeTool') ? 'gemini' : 'claude-code';
      const plain = await hook([host], input);
      const reporting = await hook([host, '--server', DOWN], input);
      process.env.ARBITER_HOME = join(home, 'file-not-directory');
      writeFileSync(process.env.ARBITER_HOME, '');
      const unwritable = await hook([host, '--server', DOWN], input);
      process.env.ARBITER_HOME = home;
      expect(plain.stdout, input).not.toBe('');
      expect(reporting, input).toEqual(plain);
      expect(unwritable, input).toEqual(plain);
      rmSync(join(home, 'file-not-directory'));
    }
    // The four judged calls were queued; the malformed input has no verdict to report.
    expect(queued().map((record) => record.kind)).toEqual(['verdict', 'verdict', 'verdict', 'verdict']);
  });

  it('a bad --server URL judges as usual and reports nothing', async () => {
    const input = event('claude-code', 'before', 'git status');
    expect(await hook(['claude-code', '--server', 'not a url'], input)).toEqual(
      await hook(['claude-code'], input),
    );
    expect(queued()).toEqual([]);
  });

  for (const host of ['claude-code', 'codex', 'gemini'] as const) {
    it(`${host}: the after-tool event queues an outcome with the verdict's call key and prints nothing`, async () => {
      const judged = await hook([host, '--server', DOWN], event(host, 'before', 'kubectl apply -f k8s/'));
      expect(judged.stdout).toMatch(/"ask"/);
      const ran = await hook([host, '--server', DOWN], event(host, 'after', 'kubectl apply -f k8s/'));
      expect(ran).toEqual({ code: 0, stdout: '', stderr: '' });
      const [verdict, outcome] = queued();
      expect(verdict).toMatchObject({
        kind: 'verdict',
        host,
        session: `session-${host}`,
        tool: shellTool[host],
        program: 'kubectl',
        verdict: 'ASK',
        decided_by: 'gate',
        project: 'acme-shop',
        team_policy_sha256: null,
      });
      expect(outcome).toMatchObject({ kind: 'outcome', host, session: `session-${host}`, outcome: 'ran' });
      expect(outcome!.call_key).toBe(verdict!.call_key);
      expect(outcome!.id).not.toBe(verdict!.id);
    });
  }

  it('without --server, an after-tool event still prints nothing and queues nothing', async () => {
    expect(await hook(['claude-code'], event('claude-code', 'after', 'ls'))).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(queued()).toEqual([]);
  });

  it('applies the cached team policy: an ASK becomes ALLOW, never a DENY, never a static ask rule', async () => {
    const policy = TeamContractServer.policyOf(['Bash(kubectl apply:*)', 'Bash(rm:*)']);
    writeCachedTeamPolicy(reports(), policy);
    const allowed = await hook(
      ['claude-code', '--server', DOWN],
      event('claude-code', 'before', 'kubectl apply -f k8s/'),
    );
    expect(JSON.parse(allowed.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: 'allow',
      permissionDecisionReason: expect.stringContaining('allowed by the team rule Bash(kubectl apply:*)'),
    });
    const denied = await hook(['claude-code', '--server', DOWN], event('claude-code', 'before', 'rm -rf ~'));
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    const policyFile = join(home, 'policy.json');
    writeFileSync(policyFile, JSON.stringify({ ask: ['Bash(kubectl apply:*)'] }));
    const asked = await hook(
      ['claude-code', '--server', DOWN, '--policy', policyFile],
      event('claude-code', 'before', 'kubectl apply -f k8s/'),
    );
    expect(JSON.parse(asked.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
    // Without --server the cached policy does not apply.
    const plain = await hook(['claude-code'], event('claude-code', 'before', 'kubectl apply -f k8s/'));
    expect(JSON.parse(plain.stdout).hookSpecificOutput.permissionDecision).toBe('ask');

    const records = queued();
    expect(
      records.map((record) => record.kind === 'verdict' && [record.effective, record.decided_by]),
    ).toEqual([
      ['ALLOW', 'team'],
      ['DENY', expect.any(String)],
      ['ASK', 'gate'],
    ]);
    for (const record of records) expect(record).toMatchObject({ team_policy_sha256: policy.sha256 });
  });

  it("reduces the cwd to the project's name, or keeps it whole where the policy says report_cwd full", async () => {
    await hook(['claude-code', '--server', DOWN], event('claude-code', 'before', 'git status'));
    expect(queued()[0]).toMatchObject({ project: 'acme-shop' });
    expect(readFileSync(join(reports(), 'queue.jsonl'), 'utf8')).not.toContain('/home/alice');
    writeCachedTeamPolicy(reports(), TeamContractServer.policyOf([], 'full'));
    await hook(['claude-code', '--server', DOWN], event('claude-code', 'before', 'git status'));
    expect(queued()[1]).toMatchObject({ project: CWD });
  });

  it('lets no secret of the redaction corpus reach the queue file or the bytes sent to the server', async () => {
    const server = await new TeamContractServer([KEY]).start();
    try {
      for (const [, template, secret] of SECRET_CORPUS) {
        const text = template.replace('{s}', secret);
        await hook(['claude-code', '--server', server.url], event('claude-code', 'before', text));
        await hook(['claude-code', '--server', server.url], event('claude-code', 'after', text));
        await hook(
          ['gemini', '--server', server.url],
          JSON.stringify({
            hook_event_name: 'BeforeTool',
            tool_name: 'web_fetch',
            tool_input: { url: text },
            cwd: CWD,
          }),
        );
        await hook(
          ['codex', '--server', server.url],
          JSON.stringify({
            hook_event_name: 'PreToolUse',
            tool_name: 'Write',
            tool_input: { file_path: text, content: text },
            cwd: CWD,
          }),
        );
      }
      const file = readFileSync(join(reports(), 'queue.jsonl'), 'utf8');
      expect(queued()).toHaveLength(SECRET_CORPUS.length * 4);
      const outcome = await flushTeamReports({ server: server.url, apiKey: KEY, directory: reports() });
      expect(outcome).toMatchObject({ ok: true, accepted: SECRET_CORPUS.length * 4 });
      const sent = Buffer.concat(server.bodies).toString('utf8');
      for (const [shape, , secret] of SECRET_CORPUS) {
        expect(file, shape).not.toContain(secret);
        expect(sent, shape).not.toContain(secret);
      }
    } finally {
      await server.stop();
    }
  });
});

describe('reportHookEvent starting the flusher', () => {
  const result = {
    output: null,
    reading: { kind: 'tool-ran', tool: 'Bash', arguments: { command: 'ls' }, session: 's' },
    verdict: null,
  } as const;

  it('starts one unless a flush runs or one failed in the last 15 s', async () => {
    const started: string[] = [];
    let clock = Date.parse('2026-11-28T07:00:00Z');
    const report = () =>
      reportHookEvent({
        host: 'claude-code',
        result,
        server: 'http://team.test',
        directory: reports(),
        policy: null,
        startFlusher: (server) => started.push(server),
        now: () => new Date(clock),
      });
    expect(report()).toBe(true);
    expect(started).toEqual(['http://team.test']);

    // A flusher holds the lock: it will send the new record too.
    writeFileSync(join(reports(), 'flush.lock'), `${process.pid}\n`);
    clock = Date.now();
    expect(report()).toBe(true);
    expect(started).toHaveLength(1);
    rmSync(join(reports(), 'flush.lock'));

    // A flush just failed: back off, then try again.
    const { TeamReportQueue } = await import('@arbiter/tool-gate/team-reporting');
    new TeamReportQueue({ directory: reports(), now: () => new Date(clock) }).recordFlush('cannot reach');
    expect(report()).toBe(true);
    expect(started).toHaveLength(1);
    clock += FLUSH_BACKOFF_MS;
    expect(report()).toBe(true);
    expect(started).toHaveLength(2);
    expect(queued()).toHaveLength(4);
  });

  it('returns false and throws nothing when the queue cannot be written', () => {
    writeFileSync(join(home, 'blocked'), '');
    expect(
      reportHookEvent({
        host: 'gemini',
        result,
        server: 'http://team.test',
        directory: join(home, 'blocked', 'gate-reports'),
        policy: null,
        startFlusher: () => {
          throw new Error('must not start');
        },
      }),
    ).toBe(false);
  });
});

describe('a real hook process with --server', () => {
  it('answers, exits 0, and its detached flusher delivers the record to the server', async () => {
    const server = await new TeamContractServer([KEY], ['Bash(kubectl apply:*)']).start();
    try {
      const environment = {
        PATH: process.env.PATH,
        ARBITER_HOME: home,
        ARBITER_API_KEY: KEY,
        ARBITER_GATE_DAEMON: 'off',
      };
      const input = event('claude-code', 'before', 'kubectl apply -f k8s/');
      const result = spawnSync(
        process.execPath,
        [launcher, 'gate', 'hook', 'claude-code', '--server', server.url],
        {
          input,
          env: environment,
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect(result.status).toBe(0);
      expect(result.stderr).toBe('');
      // No policy was cached yet: the analysis's ask stands.
      expect(JSON.parse(result.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
      // The flusher runs on after the hook exited; wait for its record (bounded), not a fixed time.
      const deadline = Date.now() + 30_000;
      while ((server.stored.get(KEY)?.length ?? 0) === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(server.stored.get(KEY)).toEqual([
        expect.objectContaining({ kind: 'verdict', program: 'kubectl' }),
      ]);
      // The flusher then caches the team policy, and the next hook allows the routine call.
      while (!existsSync(join(reports(), 'policy.json')) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const again = spawnSync(
        process.execPath,
        [launcher, 'gate', 'hook', 'claude-code', '--server', server.url],
        {
          input,
          env: { ...environment, ARBITER_GATE_REPORT: 'off' },
          encoding: 'utf8',
        },
      );
      expect(JSON.parse(again.stdout).hookSpecificOutput).toMatchObject({
        permissionDecision: 'allow',
        permissionDecisionReason: expect.stringContaining('team rule'),
      });
    } finally {
      await server.stop();
    }
  });
});
