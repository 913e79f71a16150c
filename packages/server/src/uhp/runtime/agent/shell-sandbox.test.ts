import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Workspace } from '../../workspace/workspace.js';
import { WorkspaceTools } from '../../workspace/workspace-tools.js';
import { ShellSandbox } from './shell-sandbox.js';

// These run the real bubblewrap (installed here: `apt-get install bubblewrap`).
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-sandbox-'));
const workspace = new Workspace(path.join(root, 'workspace'));
const tools = new WorkspaceTools(workspace);
const run = (sandbox: ShellSandbox, command: string) =>
  tools.shell(sandbox.wrap(command, workspace.root), new AbortController().signal);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('ShellSandbox (bubblewrap)', () => {
  const sandbox = ShellSandbox.detect();

  it('is found and works on this machine', () => {
    expect(sandbox).not.toBeNull();
  });

  it('leaves the workspace the only writable place', async () => {
    const inside = await run(sandbox!, 'echo kept > inside.txt && cat inside.txt');
    expect(inside).toMatchObject({ exitCode: 0, output: 'kept\n' });
    expect(fs.readFileSync(path.join(workspace.root, 'inside.txt'), 'utf8')).toBe('kept\n');
    const home = path.join(os.homedir(), `arbiter-sandbox-escape-${process.pid}.txt`);
    const outside = await run(sandbox!, `echo escaped > ${home}`);
    expect(outside.exitCode).not.toBe(0);
    expect(outside.output).toMatch(/Read-only file system/);
    expect(fs.existsSync(home)).toBe(false);
    // /tmp is private to the sandbox: a write there never reaches the host's /tmp.
    await run(sandbox!, `echo escaped > ${path.join(root, 'outside.txt')}`);
    expect(fs.existsSync(path.join(root, 'outside.txt'))).toBe(false);
  });

  it('has no network interface but loopback unless the network is allowed', async () => {
    const interfaces = (output: string) =>
      output
        .split('\n')
        .slice(2)
        .map((line) => line.split(':')[0]?.trim())
        .filter(Boolean);
    const isolated = await run(sandbox!, 'cat /proc/net/dev');
    expect(interfaces(isolated.output)).toEqual(['lo']);
    const open = await run(new ShellSandbox('bwrap', { allowNetwork: true }), 'cat /proc/net/dev');
    expect(interfaces(open.output).length).toBeGreaterThan(1);
  });

  it('quotes the command so the shell inside sees it unchanged', async () => {
    const result = await run(sandbox!, `printf '%s|' "a b" 'it'"'"'s' $HOME`);
    expect(result.output).toBe(`a b|it's|${workspace.root}|`);
  });
});
