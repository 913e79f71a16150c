import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StagedEtc } from './staged-etc.js';

// A made-up /etc in a temporary directory, staged the way the sandbox stages the host's.
let scratch: string;
let source: string;
let staged: StagedEtc[];
beforeEach(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-staged-etc-'));
  source = path.join(scratch, 'etc');
  fs.mkdirSync(path.join(source, 'ssl', 'certs'), { recursive: true });
  fs.mkdirSync(path.join(source, 'ssl', 'private'), { mode: 0o700 });
  fs.writeFileSync(path.join(source, 'ssl', 'private', 'host.key'), 'PRIVATE KEY');
  fs.writeFileSync(path.join(source, 'ssl', 'certs', 'ca.pem'), 'CERT');
  fs.symlinkSync('/usr/share/ca-certificates/x.crt', path.join(source, 'ssl', 'certs', 'x.pem'));
  fs.writeFileSync(path.join(source, 'hosts'), '127.0.0.1 localhost\n', { mode: 0o644 });
  fs.writeFileSync(path.join(source, 'group'), 'root:x:0:\n', { mode: 0o640 });
  fs.writeFileSync(path.join(source, 'shadow'), 'root:$6$secret:', { mode: 0o644 });
  fs.symlinkSync('../run/resolv.conf', path.join(source, 'resolv.conf'));
  staged = [];
});
afterEach(() => {
  for (const etc of staged) etc.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function stage(entries: readonly string[], onChange?: () => void): StagedEtc {
  const etc = new StagedEtc(entries, source, scratch, onChange);
  staged.push(etc);
  return etc;
}

describe('StagedEtc', () => {
  it('copies only the named entries that others could read, links as links, never followed', async () => {
    const etc = stage(['hosts', 'group', 'ssl', 'resolv.conf', 'missing']);
    const dir = (await etc.path())!;
    expect(fs.readdirSync(dir).sort()).toEqual(['hosts', 'resolv.conf', 'ssl']);
    expect(fs.readFileSync(path.join(dir, 'hosts'), 'utf8')).toBe('127.0.0.1 localhost\n');
    expect(fs.readlinkSync(path.join(dir, 'resolv.conf'))).toBe('../run/resolv.conf');
    expect(fs.readlinkSync(path.join(dir, 'ssl', 'certs', 'x.pem'))).toBe('/usr/share/ca-certificates/x.crt');
    expect(fs.readFileSync(path.join(dir, 'ssl', 'certs', 'ca.pem'), 'utf8')).toBe('CERT');
    // Not searchable by others on the host, so left out; nor is anything that was not named.
    expect(fs.existsSync(path.join(dir, 'ssl', 'private'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'shadow'))).toBe(false);
    expect(fs.statSync(path.join(dir, 'hosts')).mode & 0o777).toBe(0o644);
  });

  it('gives the same generation while nothing changes, and a new one after a change it watches', async () => {
    let changed!: () => void;
    const change = new Promise<void>((resolve) => {
      changed = resolve;
    });
    const etc = stage(['hosts', 'ssl'], () => changed());
    const first = (await etc.path())!;
    expect(await etc.path()).toBe(first);

    fs.writeFileSync(path.join(source, 'ssl', 'certs', 'ca.pem'), 'NEW CERT');
    await change;
    const second = (await etc.path())!;
    expect(second).not.toBe(first);
    expect(fs.readFileSync(path.join(second, 'ssl', 'certs', 'ca.pem'), 'utf8')).toBe('NEW CERT');
    // The generation a running program may have mounted is left as it was.
    expect(fs.readFileSync(path.join(first, 'ssl', 'certs', 'ca.pem'), 'utf8')).toBe('CERT');
  });

  it('gives starts that arrive during a staging the same copy, staged once', async () => {
    const etc = stage(['hosts', 'ssl']);
    const [a, b, c] = await Promise.all([etc.path(), etc.path(), etc.path()]);
    expect(a).not.toBeNull();
    expect([b, c]).toEqual([a, a]);
    expect(path.basename(a!)).toBe('1');
  });

  it('ignores changes to entries it does not show', async () => {
    let changes = 0;
    const etc = stage(['hosts'], () => changes++);
    const first = (await etc.path())!;
    // A watcher of our own on the same directory: the same inotify event reaches both in one turn.
    const seen = new Promise<void>((resolve) => {
      const watcher = fs.watch(source, (_event, name) => {
        if (name !== 'shadow') return;
        watcher.close();
        setImmediate(resolve);
      });
    });
    fs.writeFileSync(path.join(source, 'shadow'), 'changed');
    await seen;
    expect(changes).toBe(0);
    expect(await etc.path()).toBe(first);
  });

  it('stages again when its copy was removed from outside (a /tmp cleaner)', async () => {
    const etc = stage(['hosts']);
    const first = (await etc.path())!;
    fs.rmSync(first, { recursive: true });
    const second = (await etc.path())!;
    expect(second).not.toBe(first);
    expect(fs.readFileSync(path.join(second, 'hosts'), 'utf8')).toBe('127.0.0.1 localhost\n');
  });

  it('says it cannot stage (null) when staging fails, and does not try again', async () => {
    const parent = fs.mkdtempSync(path.join(scratch, 'parent-'));
    const etc = new StagedEtc(['hosts'], source, parent);
    staged.push(etc);
    fs.rmSync(parent, { recursive: true });
    expect(await etc.path()).toBeNull();
    fs.mkdirSync(parent);
    expect(await etc.path()).toBeNull();
  });

  it('removes the copies of ended processes, never a running one', () => {
    const parent = fs.mkdtempSync(path.join(scratch, 'parent-'));
    const ended = spawnSync('true').pid!;
    const left = path.join(parent, `arbiter-sandbox-etc-${ended}-abc`);
    const running = path.join(parent, `arbiter-sandbox-etc-${process.ppid}-abc`);
    const other = path.join(parent, 'unrelated-1-abc');
    for (const dir of [left, running, other]) fs.mkdirSync(path.join(dir, '1'), { recursive: true });
    staged.push(new StagedEtc(['hosts'], source, parent));
    expect(fs.existsSync(left)).toBe(false);
    expect(fs.existsSync(running)).toBe(true);
    expect(fs.existsSync(other)).toBe(true);
  });
});
