import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  replaceFileAtomic,
  replaceFileAtomicSync,
  writeFileAtomic,
  writeFileAtomicSync,
} from './atomic-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-atomic-'));
  dirs.push(dir);
  return dir;
}

/** Runs `work` under `mask`, restoring the process's umask after. */
async function withUmask<T>(mask: number, work: () => T | Promise<T>): Promise<T> {
  const previous = process.umask(mask);
  try {
    return await work();
  } finally {
    process.umask(previous);
  }
}

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe.each([
  ['writeFileAtomic', writeFileAtomic],
  ['writeFileAtomicSync', writeFileAtomicSync],
] as const)('%s', (_name, write) => {
  it('replaces the target with the whole data and leaves no temporary file', async () => {
    const dir = scratch();
    const target = path.join(dir, 'settings.json');
    fs.writeFileSync(target, 'old');
    await write(target, '{"new":true}\n');
    expect(fs.readFileSync(target, 'utf8')).toBe('{"new":true}\n');
    await write(target, new TextEncoder().encode('bytes'));
    expect(fs.readFileSync(target, 'utf8')).toBe('bytes');
    expect(fs.readdirSync(dir)).toEqual(['settings.json']);
  });

  it('gives the file exactly the mode asked for, whatever the umask, and replaces a wider one', async () => {
    const dir = scratch();
    const target = path.join(dir, 'secrets.json');
    fs.writeFileSync(target, 'old', { mode: 0o644 });
    // A umask that would strip the owner's write bit from 0o600 if the mode went through it.
    await withUmask(0o277, () => write(target, 'key', { mode: 0o600 }));
    expect(modeOf(target)).toBe(0o600);
    expect(fs.readFileSync(target, 'utf8')).toBe('key');
  });

  it('without a mode, gives a new file the default less the umask, as fs.writeFile does', async () => {
    const dir = scratch();
    await withUmask(0o022, () => write(path.join(dir, 'plain'), 'x'));
    expect(modeOf(path.join(dir, 'plain'))).toBe(0o644);
    await withUmask(0o077, () => write(path.join(dir, 'private'), 'x'));
    expect(modeOf(path.join(dir, 'private'))).toBe(0o600);
  });

  it('fails when the directory does not exist, and leaves the old file when the rename fails', async () => {
    const dir = scratch();
    await expect(async () => write(path.join(dir, 'missing', 'file'), 'x')).rejects.toThrow(/ENOENT/);
    // A directory cannot be replaced by a file: the rename fails after the bytes were written.
    fs.mkdirSync(path.join(dir, 'occupied'));
    fs.writeFileSync(path.join(dir, 'occupied', 'inside'), 'kept');
    await expect(async () => write(path.join(dir, 'occupied'), 'x')).rejects.toThrow(
      /EISDIR|ENOTEMPTY|EEXIST/,
    );
    expect(fs.readdirSync(dir).sort()).toEqual(['occupied']);
    expect(fs.readFileSync(path.join(dir, 'occupied', 'inside'), 'utf8')).toBe('kept');
  });
});

describe('replaceFileAtomicSync', () => {
  it('shows the target only once it is whole', () => {
    const dir = scratch();
    const target = path.join(dir, 'blob');
    replaceFileAtomicSync(target, (temporary) => {
      expect(path.dirname(temporary)).toBe(dir);
      fs.writeFileSync(temporary, 'first half ');
      // Mid-write, a reader finds no file at the target, not a partial one.
      expect(fs.existsSync(target)).toBe(false);
      fs.appendFileSync(temporary, 'second half');
    });
    expect(fs.readFileSync(target, 'utf8')).toBe('first half second half');
    expect(fs.readdirSync(dir)).toEqual(['blob']);
  });

  it('leaves neither the target nor a temporary file behind when writing fails', () => {
    const dir = scratch();
    const target = path.join(dir, 'blob');
    expect(() =>
      replaceFileAtomicSync(target, (temporary) => {
        fs.writeFileSync(temporary, 'partial');
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('replaceFileAtomic', () => {
  it('shows the target only once the asynchronous writer is done', async () => {
    const dir = scratch();
    const target = path.join(dir, 'blob');
    await replaceFileAtomic(target, async (temporary) => {
      await fs.promises.writeFile(temporary, 'first half ');
      expect(fs.existsSync(target)).toBe(false);
      await fs.promises.appendFile(temporary, 'second half');
    });
    expect(fs.readFileSync(target, 'utf8')).toBe('first half second half');
    expect(fs.readdirSync(dir)).toEqual(['blob']);
  });

  it('leaves nothing behind when the writer rejects', async () => {
    const dir = scratch();
    const target = path.join(dir, 'blob');
    await expect(
      replaceFileAtomic(target, async (temporary) => {
        await fs.promises.writeFile(temporary, 'partial');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
