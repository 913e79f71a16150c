import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ProcessSandbox } from '../sandbox/process-sandbox.js';
import { Workspace, WorkspacePathError } from './workspace.js';
import { WorkspaceTools } from './workspace-tools.js';

/** A directory in the system temporary folder, removed when the test that made it ends. */
function temporary(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
const fresh = () => new Workspace(temporary('arbiter-ws-'));

describe('Workspace', () => {
  it('resolves relative paths inside the root and refuses absolute and escaping ones', () => {
    const workspace = fresh();
    expect(workspace.resolve('a/b.txt')).toBe(path.join(workspace.root, 'a', 'b.txt'));
    expect(workspace.resolve('a/../b.txt')).toBe(path.join(workspace.root, 'b.txt'));
    for (const bad of ['/etc/passwd', '../x', 'a/../../x', 'x\0y']) {
      expect(() => workspace.resolve(bad), bad).toThrow(WorkspacePathError);
    }
  });

  it('refuses paths through a symlink that points outside, and allows one that stays inside', () => {
    const workspace = fresh();
    fs.symlinkSync('/etc', path.join(workspace.root, 'out'));
    fs.mkdirSync(path.join(workspace.root, 'inner'));
    fs.symlinkSync(path.join(workspace.root, 'inner'), path.join(workspace.root, 'in'));
    expect(() => workspace.resolve('out/passwd')).toThrow(/link/);
    expect(() => workspace.resolve('out/new/file')).toThrow(/link/);
    expect(workspace.resolve('in/file.txt')).toBe(path.join(workspace.root, 'inner', 'file.txt'));
  });

  it('snapshots files except the reserved server folder', async () => {
    const workspace = fresh();
    fs.mkdirSync(path.join(workspace.root, '.arbiter', 'skills'), { recursive: true });
    fs.writeFileSync(path.join(workspace.root, '.arbiter', 'skills', 'SKILL.md'), 'x');
    fs.mkdirSync(path.join(workspace.root, 'd'));
    fs.writeFileSync(path.join(workspace.root, 'd', 'f.txt'), 'x');
    expect([...(await workspace.snapshot()).files.keys()]).toEqual(['d/f.txt']);
  });

  it("lists a folder's files in name order whatever order their stats complete in", async () => {
    // The order decides which files a limit keeps (artifact-collection.ts), so it must not depend
    // on the thread pool: 200 files stat in batches whose completions interleave.
    const workspace = fresh();
    const names = Array.from({ length: 200 }, (_, index) => `f${String(index).padStart(3, '0')}`);
    for (const name of [...names].reverse())
      fs.writeFileSync(path.join(workspace.root, name), name.repeat(index(name)));
    for (let round = 0; round < 5; round++)
      expect([...(await workspace.snapshot()).files.keys()]).toEqual(names);
  });

  it('stops a snapshot at its entry limit, at the same entry every time, and says so', async () => {
    const workspace = fresh();
    fs.mkdirSync(path.join(workspace.root, 'b'));
    for (const name of ['b/3', 'b/1', 'a', 'b/2', 'c'])
      fs.writeFileSync(path.join(workspace.root, name), name);
    const whole = await workspace.snapshot(6);
    expect(whole.truncated).toBe(false);
    expect([...whole.files.keys()].sort()).toEqual(['a', 'b/1', 'b/2', 'b/3', 'c']);
    // Entries in byte order: a, b, c at the top, then b/1 — the fourth entry ends the walk.
    const cut = await workspace.snapshot(4);
    expect(cut.truncated).toBe(true);
    expect([...cut.files.keys()].sort()).toEqual(['a', 'b/1', 'c']);
    expect([...(await workspace.snapshot(4)).files.keys()].sort()).toEqual(['a', 'b/1', 'c']);
  });

  it('walks names in UTF-8 byte order, not UTF-16 order, and a folder of thousands whole', async () => {
    const workspace = fresh();
    // Bytes: é (c3 a9) < ｚ (ef bd 9a) < 😀 (f0 9f 98 80); UTF-16 puts 😀 (d83d) before ｚ (ff5a).
    for (const name of ['\u{1F600}', 'ｚ', 'é']) fs.writeFileSync(path.join(workspace.root, name), name);
    expect([...(await workspace.snapshot(2)).files.keys()]).toEqual(['é', 'ｚ']);
    // More names than one read of a folder (512) and one sorted run (1024): every one, in order.
    const many = fresh();
    const names = Array.from({ length: 3000 }, (_, index) => `n${(index * 7919) % 3000}`);
    for (const name of names) fs.writeFileSync(path.join(many.root, name), '');
    const sorted = [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect([...(await many.snapshot()).files.keys()]).toEqual(sorted);
    expect([...(await many.snapshot(2500)).files.keys()]).toEqual(sorted.slice(0, 2500));
  });

  it('reads only the bytes it returns of a file near the size limit', async () => {
    const workspace = fresh();
    const big = path.join(workspace.root, 'big.bin');
    // A sparse 250 MB file: reading all of it would take seconds and 250 MB of memory.
    fs.writeFileSync(big, 'head');
    fs.truncateSync(big, 250_000_000);
    const { bytes, size } = await workspace.readFile('big.bin', 1024);
    expect(size).toBe(250_000_000);
    expect(bytes.length).toBe(1024);
    expect(bytes.subarray(0, 4).toString()).toBe('head');
    const tools = new WorkspaceTools(workspace, ProcessSandbox.refusing('not needed'), {
      shellTimeoutMs: 1000,
      outputCapBytes: 8,
    });
    expect(await tools.read('big.bin')).toBe('head\0\0\0\0\n[truncated at 8 bytes]');
  });
});

describe('WorkspaceTools', () => {
  // The real bubblewrap sandbox (a test prerequisite): every program of the tools starts in it.
  let sandbox: ProcessSandbox;
  beforeAll(async () => {
    sandbox = await ProcessSandbox.open();
    expect(sandbox.state.kind).toBe('bubblewrap');
  });

  it('runs the programs of one turn one at a time, even when asked for at once', async () => {
    const tools = new WorkspaceTools(fresh(), sandbox, { shellTimeoutMs: 20_000, outputCapBytes: 1000 });
    const signal = new AbortController().signal;
    // Started together: had the second run before the first ended, it would not find `done` (exit 1).
    const [first, second] = await Promise.all([
      tools.shell('sleep 1 && touch done', signal),
      tools.shell('test -e done', signal),
    ]);
    expect([first.exitCode, second.exitCode]).toEqual([0, 0]);
    // A failed program does not stop the next.
    const [failed, next] = await Promise.all([
      tools.shell('exit 7', signal),
      tools.shell('echo after', signal),
    ]);
    expect([failed.exitCode, next.exitCode]).toEqual([7, 0]);
  });

  it('runs shell commands in the workspace without server credentials in the environment', async () => {
    process.env.ARBITER_TEST_SECRET = 'must-not-leak';
    try {
      const tools = new WorkspaceTools(fresh(), sandbox);
      const result = await tools.shell('pwd; env', new AbortController().signal);
      expect(result.exitCode).toBe(0);
      expect(result.output).toContain(tools.workspace.root);
      expect(result.output).not.toContain('must-not-leak');
      expect(result.output).not.toMatch(/API_KEY|TOKEN|SECRET/);
    } finally {
      delete process.env.ARBITER_TEST_SECRET;
    }
  });

  it('kills a command at its timeout, caps its output, and stops on abort', async () => {
    const quick = new WorkspaceTools(fresh(), sandbox, { shellTimeoutMs: 500, outputCapBytes: 100 });
    const slow = await quick.shell('sleep 5', new AbortController().signal);
    expect(slow.timedOut).toBe(true);
    // A sandboxed start can take a while on a loaded machine: the cap is checked with room to run.
    const tools = new WorkspaceTools(fresh(), sandbox, { shellTimeoutMs: 20_000, outputCapBytes: 100 });
    const loud = await tools.shell('yes | head -c 10000', new AbortController().signal);
    expect(loud.output.length).toBeLessThan(200);
    expect(loud.output).toContain('[output truncated: 9900 more bytes]');
    const controller = new AbortController();
    const pending = tools.shell('sleep 30', controller.signal);
    setTimeout(() => controller.abort(), 50);
    const aborted = await pending;
    // Killed, not timed out and not finished: the abort ended the whole tree.
    expect(aborted.timedOut).toBe(false);
    expect(aborted.exitCode).toBeNull();
  });

  it('never writes through a symlink that leads outside, dangling or not', () => {
    const outside = temporary('arbiter-outside-');
    const workspace = fresh();
    fs.writeFileSync(path.join(outside, 'target.txt'), 'original');
    fs.symlinkSync(path.join(outside, 'target.txt'), path.join(workspace.root, 'link.txt'));
    fs.symlinkSync(path.join(outside, 'absent.txt'), path.join(workspace.root, 'dangling.txt'));
    const tools = new WorkspaceTools(
      workspace,
      ProcessSandbox.refusing('not needed: these tools run no program'),
    );
    expect(() => tools.write('link.txt', 'new')).toThrow(WorkspacePathError);
    expect(() => tools.write('dangling.txt', 'new')).toThrow(/broken link/);
    expect(fs.readFileSync(path.join(outside, 'target.txt'), 'utf8')).toBe('original');
    expect(fs.existsSync(path.join(outside, 'absent.txt'))).toBe(false);
    fs.writeFileSync(path.join(workspace.root, 'real.txt'), 'inside');
    fs.symlinkSync(path.join(workspace.root, 'real.txt'), path.join(workspace.root, 'inner-link.txt'));
    // A link that stays inside is an ordinary alias: the write lands on its (confined) target.
    tools.write('inner-link.txt', 'replaced');
    expect(fs.readFileSync(path.join(workspace.root, 'real.txt'), 'utf8')).toBe('replaced');
  });

  it('reads and writes a FIFO the agent made without blocking the server, and lists through a handle', async () => {
    const workspace = fresh();
    execFileSync('mkfifo', [path.join(workspace.root, 'pipe')]);
    const tools = new WorkspaceTools(
      workspace,
      ProcessSandbox.refusing('not needed: these tools run no program'),
    );
    // A blocking read or write here would stall the whole server: both are refused at once.
    await expect(tools.read('pipe')).rejects.toThrow(WorkspacePathError);
    tools.write('pipe', 'now a file');
    expect(fs.lstatSync(path.join(workspace.root, 'pipe')).isFile()).toBe(true);
    expect(await tools.read('pipe')).toBe('now a file');
    fs.mkdirSync(path.join(workspace.root, 'd'));
    fs.symlinkSync('/etc', path.join(workspace.root, 'etc-link'));
    expect(tools.list('.')).toEqual(['d/', 'etc-link', 'pipe']);
    expect(() => tools.list('etc-link')).toThrow(WorkspacePathError);
  });
});

/** A file's size differs with its name, so the stats of one batch do not all cost the same. */
function index(name: string): number {
  return (Number(name.slice(1)) % 7) * 300 + 1;
}
