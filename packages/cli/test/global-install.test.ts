import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm install -g` of the packed CLI into a temporary prefix, then `arbiter` used from that prefix
// with a PATH that holds neither the repository nor anything of it. Slow by nature (packing and
// installing a few thousand files), so it is one test. Needs the build (`npx tsc -b`).
//
// The install runs with --ignore-scripts: the tarball carries better-sqlite3's binary built in this
// checkout, which must work with no install script at all (the script only checks that it loads,
// and fetches another where it does not). It installs offline: the tarball needs no registry.

const repository = resolve(import.meta.dirname, '../../..');
const work = mkdtempSync(join(tmpdir(), 'arbiter-global-install-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const QUIET_NPM = {
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

describe('the packed CLI installed with npm install -g', () => {
  it('gives a working arbiter with no repository beside it, whose gate install writes a hook that runs', () => {
    const tarball = execFileSync(
      process.execPath,
      [join(repository, 'scripts', 'pack-cli.mjs'), '--out', join(work, 'pack')],
      {
        encoding: 'utf8',
        env: QUIET_NPM,
        maxBuffer: 1 << 26,
      },
    ).trim();
    expect(existsSync(tarball)).toBe(true);

    const prefix = join(work, 'prefix');
    execFileSync(
      'npm',
      ['install', '--global', '--prefix', prefix, '--offline', '--ignore-scripts', tarball],
      {
        cwd: work,
        env: QUIET_NPM,
        stdio: 'pipe',
      },
    );
    const arbiter = join(prefix, 'bin', 'arbiter');
    const installed = realpathSync(arbiter);
    expect(installed.startsWith(realpathSync(prefix))).toBe(true);

    // Nothing of the repository: a PATH with node's folder only, another HOME, another directory.
    const home = join(work, 'home');
    const project = join(home, 'project');
    mkdirSync(project, { recursive: true });
    const env = { PATH: '/usr/bin:/bin', HOME: home, ARBITER_GATE_DAEMON: 'off' };
    const run = (args: string[], input = '') =>
      spawnSync(arbiter, args, { cwd: project, env, input, encoding: 'utf8', timeout: 120_000 });

    const version = run(['--version']);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout).toBe('0.1.0\n');

    writeFileSync(
      join(project, 'questions.yaml'),
      'team: { type: choice, instructions: Which team?, criteria: { billing: refunds and charges, technical: bugs } }\n',
    );
    const decided = run(
      ['decide', '--state', '-', '--questions', 'questions.yaml', '--json'],
      'Please refund the duplicate charge',
    );
    expect(decided.status, decided.stderr).toBe(0);
    expect(JSON.parse(decided.stdout)).toMatchObject({
      skipped: false,
      answers: { team: { choice: 'billing' } },
    });

    // SQLite through the packed binary: creating a key opens (and creates) the database.
    const key = run(['keys', 'create', '--data-dir', join(home, 'data')]);
    expect(key.status, key.stderr).toBe(0);
    expect(key.stdout).toMatch(/^arb_/);
    expect(existsSync(join(home, 'data', 'arbiter.db'))).toBe(true);

    const gate = run(['gate', 'install', 'claude-code']);
    expect(gate.status, gate.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8'));
    const command: string = settings.hooks.PreToolUse[0].hooks[0].command;
    expect(command).toBe(`${process.execPath} ${installed} gate hook claude-code`);
    expect(command).not.toContain(repository);
    const hook = spawnSync('/bin/sh', ['-c', command], {
      cwd: project,
      env: { PATH: '/nonexistent', HOME: home, ARBITER_GATE_DAEMON: 'off' },
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf ~' },
        cwd: project,
      }),
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(hook.status, hook.stderr).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  }, 900_000);
});
