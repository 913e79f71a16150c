import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DirectoryHandle, UntrustedEntryError } from './directory-handle.js';
import { Workspace } from './workspace.js';

/** A directory in the system temporary folder, removed when the test that made it ends. */
function temp(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('DirectoryHandle', () => {
  it('keeps resolving beneath the directory it opened after that directory is swapped for a link', () => {
    const root = temp('arbiter-dh-');
    const outside = temp('arbiter-dh-out-');
    fs.mkdirSync(path.join(root, 'd'));
    fs.writeFileSync(path.join(root, 'd', 'f.txt'), 'inside');
    fs.writeFileSync(path.join(outside, 'f.txt'), 'outside');
    const handle = DirectoryHandle.open(root);
    const dir = handle.openDirectory('d');
    // The race an agent would run: the folder becomes a link to somewhere else after it was opened.
    fs.renameSync(path.join(root, 'd'), path.join(root, 'd-moved'));
    fs.symlinkSync(outside, path.join(root, 'd'));
    const { fd } = dir.openRegularFile('f.txt');
    expect(fs.readFileSync(fd, 'utf8')).toBe('inside');
    fs.closeSync(fd);
    // Opening the name again meets the link, which is refused.
    expect(() => handle.openDirectory('d')).toThrow(UntrustedEntryError);
    dir.close();
    handle.close();
  });

  it('refuses links and FIFOs as files without blocking, and `..` or separators as names', () => {
    const root = temp('arbiter-dh-');
    fs.symlinkSync('/etc/passwd', path.join(root, 'link'));
    execFileSync('mkfifo', [path.join(root, 'fifo')]);
    const handle = DirectoryHandle.open(root);
    expect(() => handle.openRegularFile('link')).toThrow(UntrustedEntryError);
    expect(() => handle.openRegularFile('fifo')).toThrow(UntrustedEntryError);
    for (const name of ['..', '.', 'a/b', ''])
      expect(() => handle.childPath(name)).toThrow(UntrustedEntryError);
    expect(() => handle.createExclusive('link')).toThrow();
    expect(fs.readlinkSync(path.join(root, 'link'))).toBe('/etc/passwd');
    handle.close();
  });

  it('empties a tree of links, FIFOs and non-UTF-8 names without touching link targets', async () => {
    const root = temp('arbiter-dh-');
    const outside = temp('arbiter-dh-out-');
    fs.writeFileSync(path.join(outside, 'keep'), 'keep');
    fs.mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    fs.symlinkSync(outside, path.join(root, 'a', 'b', 'out'));
    execFileSync('mkfifo', [path.join(root, 'a', 'fifo')]);
    fs.writeFileSync(Buffer.concat([Buffer.from(`${root}/a/`), Buffer.from([0xff])]), 'x');
    await Workspace.remove(root);
    expect(fs.existsSync(root)).toBe(false);
    expect(fs.readFileSync(path.join(outside, 'keep'), 'utf8')).toBe('keep');
  });
});

describe('Workspace.copyOut', () => {
  it('refuses an artifact that became a link to a secret after the snapshot', async () => {
    const workspace = new Workspace(temp('arbiter-ws-'));
    const secret = path.join(temp('arbiter-dh-out-'), 'secret');
    fs.writeFileSync(secret, 'secret');
    fs.writeFileSync(path.join(workspace.root, 'a.txt'), 'artifact');
    expect([...(await workspace.snapshot()).files.keys()]).toEqual(['a.txt']);
    fs.rmSync(path.join(workspace.root, 'a.txt'));
    fs.symlinkSync(secret, path.join(workspace.root, 'a.txt'));
    const destination = path.join(temp('arbiter-blob-'), 'blob');
    await expect(workspace.copyOut('a.txt', destination)).rejects.toThrow(UntrustedEntryError);
    expect(fs.existsSync(destination)).toBe(false);
  });

  it('does not copy a file larger than the bytes it may take', async () => {
    const workspace = new Workspace(temp('arbiter-ws-'));
    fs.writeFileSync(path.join(workspace.root, 'a.txt'), '12345');
    const destination = path.join(temp('arbiter-blob-'), 'blob');
    expect(await workspace.copyOut('a.txt', destination, 4)).toBeNull();
    expect(fs.existsSync(destination)).toBe(false);
    expect(await workspace.copyOut('a.txt', destination, 5)).toBe(5);
    expect(fs.readFileSync(destination, 'utf8')).toBe('12345');
  });
});

describe('Workspace reserved state files', () => {
  it('neither reads nor writes through a link planted under the name or as the reserved folder', () => {
    const workspace = new Workspace(temp('arbiter-ws-'));
    const outside = temp('arbiter-dh-out-');
    const target = path.join(outside, 'acp-session.json');
    fs.writeFileSync(target, '{"agent":"other","sessionId":"theirs"}');
    fs.mkdirSync(path.join(workspace.root, '.arbiter'));
    fs.symlinkSync(target, path.join(workspace.root, '.arbiter', 'acp-session.json'));
    expect(Workspace.readReserved(workspace.root, 'acp-session.json')).toBeNull();
    Workspace.writeReserved(workspace.root, 'acp-session.json', '{"mine":true}');
    expect(fs.readFileSync(target, 'utf8')).toBe('{"agent":"other","sessionId":"theirs"}');
    expect(Workspace.readReserved(workspace.root, 'acp-session.json')).toBe('{"mine":true}');
    // The whole reserved folder replaced by a link to a folder outside.
    fs.rmSync(path.join(workspace.root, '.arbiter'), { recursive: true });
    fs.symlinkSync(outside, path.join(workspace.root, '.arbiter'));
    expect(Workspace.readReserved(workspace.root, 'acp-session.json')).toBeNull();
    Workspace.writeReserved(workspace.root, 'acp-session.json', '{"again":true}');
    expect(fs.readFileSync(target, 'utf8')).toBe('{"agent":"other","sessionId":"theirs"}');
    expect(fs.lstatSync(path.join(workspace.root, '.arbiter')).isDirectory()).toBe(true);
  });
});
