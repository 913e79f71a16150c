import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readHostSettingsFile } from './host-settings-file.js';

async function settingsHolding(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'host-settings-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'settings.json');
  await writeFile(path, text);
  return path;
}

describe('readHostSettingsFile', () => {
  it('reads the object a settings file holds', async () => {
    const path = await settingsHolding('{"permissions":{"deny":["Bash(rm:*)"]}}');
    expect(await readHostSettingsFile(path)).toEqual({ permissions: { deny: ['Bash(rm:*)'] } });
  });

  it('reads a missing or blank file as no settings', async () => {
    expect(await readHostSettingsFile(join(tmpdir(), 'no-such-dir-arbiter', 'settings.json'))).toEqual({});
    expect(await readHostSettingsFile(await settingsHolding('  \n'))).toEqual({});
  });

  it('refuses what is not a JSON object, naming the file', async () => {
    const broken = await settingsHolding('{ "hooks": ');
    await expect(readHostSettingsFile(broken)).rejects.toThrow(`${broken} is not valid JSON`);
    const list = await settingsHolding('[]');
    await expect(readHostSettingsFile(list)).rejects.toThrow(`${list} does not hold a JSON object`);
  });
});
