import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomically, writeFileAtomicallyAsync } from './atomic-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('writeFileAtomically', () => {
  it('shows the target only once it is whole', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-atomic-'));
    dirs.push(dir);
    const target = path.join(dir, 'blob');
    writeFileAtomically(target, (temporary) => {
      fs.writeFileSync(temporary, 'first half ');
      // Mid-write, a reader finds no file at the target, not a partial one.
      expect(fs.existsSync(target)).toBe(false);
      fs.appendFileSync(temporary, 'second half');
    });
    expect(fs.readFileSync(target, 'utf8')).toBe('first half second half');
    expect(fs.readdirSync(dir)).toEqual(['blob']);
  });

  it('leaves neither the target nor a temporary file behind when writing fails', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-atomic-'));
    dirs.push(dir);
    const target = path.join(dir, 'blob');
    expect(() =>
      writeFileAtomically(target, (temporary) => {
        fs.writeFileSync(temporary, 'partial');
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('writeFileAtomicallyAsync', () => {
  it('shows the target only once the asynchronous writer is done', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-atomic-'));
    dirs.push(dir);
    const target = path.join(dir, 'blob');
    await writeFileAtomicallyAsync(target, async (temporary) => {
      await fs.promises.writeFile(temporary, 'first half ');
      expect(fs.existsSync(target)).toBe(false);
      await fs.promises.appendFile(temporary, 'second half');
    });
    expect(fs.readFileSync(target, 'utf8')).toBe('first half second half');
    expect(fs.readdirSync(dir)).toEqual(['blob']);
  });

  it('leaves nothing behind when the writer rejects', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-atomic-'));
    dirs.push(dir);
    const target = path.join(dir, 'blob');
    await expect(
      writeFileAtomicallyAsync(target, async (temporary) => {
        await fs.promises.writeFile(temporary, 'partial');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
