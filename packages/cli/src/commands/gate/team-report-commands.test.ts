import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamReportQueue } from '@arbiter/tool-gate/team-reporting';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CliRun, runArbiter } from '../../../test/support/run-arbiter.js';
import { TeamContractServer } from '../../../test/support/team-contract-server.js';

// The real `arbiter` as a subprocess, as the end-to-end test and a developer's shell run it
// (build first with `npx tsc -b`).
vi.setConfig({ testTimeout: 120_000 });
const KEY = 'arb_test_reporter_key_do_not_write_me_0123';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'team-commands-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/**
 * `arbiter <args>` on this test's machine, as a real subprocess that does not block this process's
 * event loop: the contract server answering the child lives in this process.
 */
function arbiter(args: readonly string[], environment: NodeJS.ProcessEnv = {}, cwd = home): Promise<CliRun> {
  return runArbiter(args, {
    env: { HOME: home, ARBITER_HOME: home, ARBITER_GATE_DAEMON: 'off', ...environment },
    cwd,
  });
}

function queueRecords(count: number): TeamReportQueue {
  const queue = new TeamReportQueue({ directory: join(home, 'gate-reports') });
  for (let n = 1; n <= count; n++)
    queue.append({
      kind: 'outcome',
      id: `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`,
      time: '2026-11-28T07:00:00.000Z',
      host: 'codex',
      session: null,
      tool: 'Bash',
      call_key: 'd'.repeat(64),
      outcome: 'ran',
    });
  return queue;
}

describe('arbiter gate report flush', () => {
  it('exits 0 with the queue empty, 1 with one line when the server is down, 2 for a bad --server', async () => {
    const server = await new TeamContractServer([KEY], ['Bash(kubectl apply:*)']).start();
    const url = server.url;
    queueRecords(3);
    await server.stop();
    const down = await arbiter(['gate', 'report', 'flush', '--server', url], { ARBITER_API_KEY: KEY });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(
      /^arbiter gate report flush: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED\n$/,
    );

    const status = await arbiter(['gate', 'report', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({
      records: 3,
      dropped: 0,
      last_error: expect.stringMatching(/^cannot reach/),
      policy: null,
    });

    await server.start();
    try {
      const flushed = await arbiter(['gate', 'report', 'flush', '--server', url], { ARBITER_API_KEY: KEY });
      expect(flushed).toMatchObject({ code: 0, stderr: '' });
      expect(flushed.stdout).toMatch(
        /^sent 3 records \(3 new, 0 already stored\); team policy [0-9a-f]{12} updated\n$/,
      );
      const after = JSON.parse((await arbiter(['gate', 'report', 'status', '--json'])).stdout);
      expect(after).toMatchObject({
        records: 0,
        last_error: null,
        policy: { sha256: server.policy.sha256, allow: 1 },
      });
      const text = (await arbiter(['gate', 'report', 'status'])).stdout;
      expect(text).toContain(`team policy: ${server.policy.sha256} (1 allow rules, cwd reported as project)`);
      expect(text).toMatch(/^queue: +0 records/);
    } finally {
      await server.stop();
    }

    const bad = await arbiter(['gate', 'report', 'flush', '--server', 'ftp://x'], { ARBITER_API_KEY: KEY });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('arbiter gate report flush: --server must be an http or https URL, got "ftp:"\n');
  });

  it('exits 1 and names the refusal when the key is refused, and 1 without a key', async () => {
    const server = await new TeamContractServer([KEY]).start();
    try {
      queueRecords(1);
      const refused = await arbiter(['gate', 'report', 'flush', '--server', server.url], {
        ARBITER_API_KEY: 'arb_other',
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        'arbiter gate report flush: the server refused the reports: 401 invalid_api_key: the API key is not valid\n',
      );
      const missing = await arbiter(['gate', 'report', 'flush', '--server', server.url]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/ARBITER_API_KEY is not set/);
    } finally {
      await server.stop();
    }
  });
});

const HOSTS = [
  { host: 'claude-code', file: '.claude/settings.json', before: 'PreToolUse', after: 'PostToolUse' },
  { host: 'gemini', file: '.gemini/settings.json', before: 'BeforeTool', after: 'AfterTool' },
  { host: 'codex', file: '.codex/hooks.json', before: 'PreToolUse', after: 'PostToolUse' },
] as const;

describe('arbiter gate install --server', () => {
  for (const target of HOSTS) {
    it(`${target.host}: writes the hook with --server for both events, never the key, and uninstall removes both`, async () => {
      const project = mkdtempSync(join(home, 'project-'));
      const environment = { ARBITER_API_KEY: KEY };
      const url = 'https://arbiter.example.test/team';
      const installed = await arbiter(
        ['gate', 'install', target.host, '--server', url],
        environment,
        project,
      );
      expect(installed.stderr).toBe('');
      expect(installed.code).toBe(0);
      expect(installed.stdout).toContain(`installed for ${target.before} and ${target.after}`);
      const text = readFileSync(join(project, target.file), 'utf8');
      expect(text).not.toContain(KEY);
      const hooks = JSON.parse(text).hooks;
      const commands = (event: string) =>
        (hooks[event] as { hooks: { command: string }[] }[]).flatMap((group) =>
          group.hooks.map((hook) => hook.command),
        );
      const [command] = commands(target.before);
      expect(command).toMatch(new RegExp(`arbiter\\.js gate hook ${target.host} --server ${url}$`));
      expect(commands(target.after)).toEqual([command]);
      // The trial run reported nothing.
      expect(existsSync(join(home, 'gate-reports', 'queue.jsonl'))).toBe(false);
      // A second install changes nothing.
      expect(
        (await arbiter(['gate', 'install', target.host, '--server', url], environment, project)).stdout,
      ).toMatch(/already has the hooks; nothing changed/);
      const removed = await arbiter(
        ['gate', 'uninstall', target.host, '--server', url],
        environment,
        project,
      );
      expect(removed.stdout).toMatch(/removed the hooks/);
      expect(JSON.parse(readFileSync(join(project, target.file), 'utf8')).hooks).toBeUndefined();
    });
  }

  it('refuses a URL that carries credentials, and writes nothing', async () => {
    const project = mkdtempSync(join(home, 'project-'));
    const result = await arbiter(
      ['gate', 'install', 'claude-code', '--server', 'https://me:secret@arbiter.test'],
      {},
      project,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /--server must not carry credentials; the hook reads the key from ARBITER_API_KEY/,
    );
    expect(existsSync(join(project, '.claude'))).toBe(false);
  });

  it('keeps the hooks already in the file', async () => {
    const project = mkdtempSync(join(home, 'project-'));
    const settings = join(project, 'custom.json');
    writeFileSync(
      settings,
      JSON.stringify({
        model: 'x',
        hooks: { PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier' }] }] },
      }),
    );
    const result = await arbiter(
      ['gate', 'install', 'claude-code', '--server', 'http://127.0.0.1:7411', '--settings', settings],
      {},
      project,
    );
    expect(result.code).toBe(0);
    const written = JSON.parse(readFileSync(settings, 'utf8'));
    expect(written.model).toBe('x');
    expect(written.hooks.PostToolUse).toHaveLength(2);
    expect(written.hooks.PostToolUse[0].hooks[0].command).toBe('prettier');
  });
});
