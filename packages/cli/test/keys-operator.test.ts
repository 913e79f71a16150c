import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runArbiter } from './support/run-arbiter.js';

// Runs the built CLI (`npx tsc -b` first), as a user would; each run starts a node process.
vi.setConfig({ testTimeout: 90_000 });

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'arbiter-cli-operator-'));
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

describe('arbiter keys create --operator', () => {
  it('makes an operator key only when asked; every other key is a member', async () => {
    const dataDir = join(workDir, 'keys');
    const run = (args: string[]) => runArbiter([...args, '--data-dir', dataDir], { env: { HOME: workDir } });
    const member = await run(['keys', 'create', '--principal', 'ci']);
    expect(member.code).toBe(0);
    expect(member.stderr).toContain('created member key');
    const operator = await run(['keys', 'create', '--principal', 'ops', '--operator']);
    expect(operator.code).toBe(0);
    expect(operator.stdout).toMatch(/^arb_[A-Za-z0-9_-]{43}\n$/);
    expect(operator.stderr).toContain('created operator key');
    const listed = JSON.parse((await run(['keys', 'list', '--json'])).stdout) as {
      principal: { name: string };
      role: string;
    }[];
    expect(listed.map((record) => [record.principal.name, record.role])).toEqual([
      ['ci', 'member'],
      ['ops', 'operator'],
    ]);
  });

  it('makes a reporter key with --role reporter, and refuses an unknown or contradicting role', async () => {
    const dataDir = join(workDir, 'roles');
    const run = (args: string[]) => runArbiter([...args, '--data-dir', dataDir], { env: { HOME: workDir } });
    const reporter = await run(['keys', 'create', '--principal', 'hook', '--role', 'reporter']);
    expect(reporter.code).toBe(0);
    expect(reporter.stderr).toContain('created reporter key');
    const listed = JSON.parse((await run(['keys', 'list', '--json'])).stdout) as { role: string }[];
    expect(listed.map((record) => record.role)).toEqual(['reporter']);
    const table = (await run(['keys', 'list'])).stdout;
    expect(table.split('\n')[0]).toMatch(/^id +principal +role +key +created +status/);
    expect(table).toMatch(/ hook +reporter +…/);
    const unknown = await run(['keys', 'create', '--role', 'auditor']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--role must be one of operator, member, reporter, not "auditor"');
    const both = await run(['keys', 'create', '--operator', '--role', 'reporter']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--operator and --role reporter contradict each other');
  });
});
