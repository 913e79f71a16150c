import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { teamPolicySha256 } from '@arbiter/tool-gate/team';
import { readCachedTeamPolicy } from '@arbiter/tool-gate/team-reporting';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_CORPUS } from '../../decision/test/support/secret-corpus.js';
import { startTeamGateServer, type TeamGateServer } from '../../server/test/gate-team/team-gate-fixture.js';
import { flushTeamReports } from '../src/commands/gate/team-report-flusher.js';
import { claudeCodeBashEvent, closedLoopbackUrl, gateHookInProcess } from './support/gate-hook.js';

/**
 * The hook side of the team gate against the real server (the app on SQLite over loopback HTTP,
 * as packages/server/test/gate-team starts it): hooks queue, the flusher sends and replays, the
 * server chains, folds outcomes and serves the policy the hooks cache.
 */
let server: TeamGateServer;
let home: string;
const VARIABLES = ['ARBITER_HOME', 'ARBITER_GATE_REPORT', 'ARBITER_GATE_AUDIT', 'ARBITER_GATE_TASK'] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

beforeEach(async () => {
  server = await startTeamGateServer();
  home = mkdtempSync(join(tmpdir(), 'gate-team-real-'));
  process.env.ARBITER_HOME = home;
  process.env.ARBITER_GATE_REPORT = 'queue';
  process.env.ARBITER_GATE_AUDIT = '';
  process.env.ARBITER_GATE_TASK = '';
});
afterEach(async () => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  process.exitCode = undefined;
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

const reports = () => join(home, 'gate-reports');

/** `arbiter gate hook <host> --server URL` in this process; what it printed. */
async function hook(host: string, input: object): Promise<string> {
  return (await gateHookInProcess([host, '--server', server.url], JSON.stringify(input))).stdout;
}

const call = (event: 'PreToolUse' | 'PostToolUse', command: string) =>
  claudeCodeBashEvent(event, command, { session: 'session-a', cwd: '/home/alice/src/acme-shop' });

describe('hooks and flusher against the real team gate server', () => {
  it('replays after the server was down and after a lost answer, and the chain stays whole', async () => {
    const key = server.keys.reporter;
    expect(await hook('claude-code', call('PreToolUse', 'kubectl apply -f k8s/'))).toMatch(/"ask"/);
    await hook('claude-code', call('PostToolUse', 'kubectl apply -f k8s/'));
    await hook('claude-code', call('PreToolUse', 'git status'));

    // The server "is down": nothing answers on this port. Everything stays queued.
    const nowhere = await closedLoopbackUrl();
    const down = await flushTeamReports({ server: nowhere, apiKey: key, directory: reports() });
    expect(down).toMatchObject({ ok: false, error: `cannot reach ${nowhere}: ECONNREFUSED` });

    // A copy of the queue stands for an answer that was lost after the server stored the records.
    copyFileSync(join(reports(), 'queue.jsonl'), join(home, 'queue-before.jsonl'));
    const sent = await flushTeamReports({ server: server.url, apiKey: key, directory: reports() });
    expect(sent).toMatchObject({ ok: true, accepted: 3, duplicates: 0 });
    copyFileSync(join(home, 'queue-before.jsonl'), join(reports(), 'queue.jsonl'));
    const replayed = await flushTeamReports({ server: server.url, apiKey: key, directory: reports() });
    expect(replayed).toMatchObject({ ok: true, accepted: 0, duplicates: 3 });
    expect(readFileSync(join(reports(), 'queue.jsonl'), 'utf8')).toBe('');

    const verified = await server.request('GET', '/v1/gate/audit/verify', server.keys.alice);
    expect(verified.body).toEqual({ ok: true, entries: 3, head: sent.ok ? sent.head : null });

    const rows = await server.request('GET', '/v1/gate/records?verdict=ASK', server.keys.alice);
    expect(rows.body.data).toHaveLength(1);
    expect(rows.body.data[0]).toMatchObject({
      outcome: 'approved',
      record: { program: 'kubectl', project: 'acme-shop', call: { command: 'kubectl apply -f k8s/' } },
    });
  });

  it("caches the server's policy, revalidates it with If-None-Match, and hooks apply an accepted rule", async () => {
    const key = server.keys.reporter;
    const first = await flushTeamReports({ server: server.url, apiKey: key, directory: reports() });
    expect(first.ok ? 'sent' : first.error).toBe('sent');
    const empty = readCachedTeamPolicy(reports());
    expect(empty).toMatchObject({
      allow: [],
      sha256: teamPolicySha256({ version: 1, allow: [], report_cwd: 'project' }),
    });
    expect(first).toMatchObject({ ok: true, policy: 'updated', policySha256: empty!.sha256 });
    expect(await flushTeamReports({ server: server.url, apiKey: key, directory: reports() })).toMatchObject({
      ok: true,
      policy: 'unchanged',
    });

    // Three approvals across principals make the routine call a suggestion; the operator accepts it.
    for (const person of [server.keys.alice, server.keys.bob, server.keys.alice]) {
      const directory = mkdtempSync(join(home, 'person-'));
      process.env.ARBITER_HOME = directory;
      await hook('claude-code', call('PreToolUse', 'kubectl apply -f k8s/'));
      await hook('claude-code', call('PostToolUse', 'kubectl apply -f k8s/'));
      expect(
        await flushTeamReports({
          server: server.url,
          apiKey: person,
          directory: join(directory, 'gate-reports'),
        }),
      ).toMatchObject({ ok: true, accepted: 2 });
    }
    process.env.ARBITER_HOME = home;
    const suggestions = await server.request('GET', '/v1/gate/suggestions', server.keys.ops);
    const suggestion = suggestions.body.data.find((entry: { rule: string }) =>
      entry.rule.startsWith('Bash(kubectl apply'),
    );
    expect(suggestion).toBeDefined();
    expect(
      (await server.request('POST', `/v1/gate/suggestions/${suggestion.id}/accept`, server.keys.ops)).status,
    ).toBe(200);

    expect(await flushTeamReports({ server: server.url, apiKey: key, directory: reports() })).toMatchObject({
      ok: true,
      policy: 'updated',
    });
    const policy = readCachedTeamPolicy(reports());
    expect(policy?.allow).toEqual([suggestion.rule]);
    const allowed = JSON.parse(await hook('claude-code', call('PreToolUse', 'kubectl apply -f k8s/')));
    expect(allowed.hookSpecificOutput.permissionDecision).toBe('allow');
    const denied = JSON.parse(await hook('claude-code', call('PreToolUse', 'rm -rf ~')));
    expect(denied.hookSpecificOutput.permissionDecision).toBe('deny');
    await flushTeamReports({ server: server.url, apiKey: key, directory: reports() });
    const rows = await server.request('GET', '/v1/gate/records?verdict=ALLOW', server.keys.alice);
    expect(rows.body.data[0].record).toMatchObject({
      decided_by: 'team',
      team_policy_sha256: policy!.sha256,
    });
  });

  it('stores no secret of the redaction corpus', async () => {
    for (const [, template, secret] of SECRET_CORPUS.slice(0, 40)) {
      await hook('claude-code', call('PreToolUse', template.replace('{s}', secret)));
    }
    expect(
      await flushTeamReports({ server: server.url, apiKey: server.keys.reporter, directory: reports() }),
    ).toMatchObject({
      ok: true,
      accepted: 40,
    });
    const rows = await server.request('GET', '/v1/gate/records?limit=500', server.keys.alice);
    expect(rows.body.data).toHaveLength(40);
    const stored = JSON.stringify(rows.body);
    for (const [shape, , secret] of SECRET_CORPUS.slice(0, 40)) expect(stored, shape).not.toContain(secret);
  });
});
