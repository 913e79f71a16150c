import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readClaudeSettingsFile } from './claude-settings-file.js';

async function settingsHolding(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'claude-settings-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'settings.json');
  await writeFile(path, text);
  return path;
}

describe('readClaudeSettingsFile', () => {
  it('reads the object a settings file holds', async () => {
    const path = await settingsHolding('{"permissions":{"deny":["Bash(rm:*)"]}}');
    expect(await readClaudeSettingsFile(path)).toEqual({ permissions: { deny: ['Bash(rm:*)'] } });
  });

  it('reads a missing or blank file as no settings', async () => {
    expect(await readClaudeSettingsFile(join(tmpdir(), 'no-such-dir-arbiter', 'settings.json'))).toEqual({});
    expect(await readClaudeSettingsFile(await settingsHolding('  \n'))).toEqual({});
  });

  it('refuses what is not a JSON object, naming the file', async () => {
    const broken = await settingsHolding('{ "hooks": ');
    await expect(readClaudeSettingsFile(broken)).rejects.toThrow(`${broken} is not valid JSON`);
    const list = await settingsHolding('[]');
    await expect(readClaudeSettingsFile(list)).rejects.toThrow(`${list} does not hold a JSON object`);
  });
});
