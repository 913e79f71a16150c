import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { writeSettingsWithBackup } from './settings-with-backup.js';

async function freshDirectory(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'arbiter-settings-backup-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('writeSettingsWithBackup', () => {
  it('creates a missing file and its directory, with no backup', async () => {
    const dir = await freshDirectory();
    const path = join(dir, '.gemini', 'settings.json');
    expect(await writeSettingsWithBackup(path, { hooks: {} })).toBeNull();
    expect(await readFile(path, 'utf8')).toBe('{\n  "hooks": {}\n}\n');
    expect(await readdir(join(dir, '.gemini'))).toEqual(['settings.json']);
  });

  it('keeps the old file byte for byte beside the new one before replacing it', async () => {
    const dir = await freshDirectory();
    const path = join(dir, 'settings.json');
    // Not our formatting: the backup is a copy, not the old settings written again.
    const original = '{"model":"x",  "hooks":{}}';
    await writeFile(path, original);
    const backupPath = await writeSettingsWithBackup(path, { model: 'y' });
    expect(backupPath).toMatch(/settings\.json\.arbiter-backup-\d{4}-\d{2}-\d{2}T[\d-]+Z$/);
    expect(await readFile(backupPath as string, 'utf8')).toBe(original);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ model: 'y' });
    expect((await readdir(dir)).sort()).toEqual(['settings.json', basename(backupPath as string)]);
  });

  it('writes nothing when the old file cannot be backed up', async () => {
    const dir = await freshDirectory();
    // A directory where the file should be: the copy fails with something other than "no file".
    const path = join(dir, 'settings.json');
    await mkdir(path);
    await expect(writeSettingsWithBackup(path, { model: 'y' })).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['settings.json']);
    expect(await readdir(path)).toEqual([]);
  });
});
