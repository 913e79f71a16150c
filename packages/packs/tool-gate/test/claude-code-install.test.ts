import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { installClaudeCodeHook, uninstallClaudeCodeHook } from '../src/index.js';

/** The project settings path in a directory of the test's own, removed when the test ends. */
async function fresh(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'arbiter-install-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return join(dir, '.claude', 'settings.json');
}
const read = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

describe('installClaudeCodeHook', () => {
  it('creates the settings file with the PreToolUse hook', async () => {
    const path = await fresh();
    expect(await installClaudeCodeHook(path)).toEqual({
      settingsPath: path,
      changed: true,
      backupPath: null,
    });
    // The mode of any new file (0666 less the umask), as the install has always written it.
    expect((await stat(path)).mode & 0o777).toBe(0o666 & ~process.umask());
    expect(await read(path)).toEqual({
      hooks: {
        PreToolUse: [
          {
            matcher: '*',
            hooks: [{ type: 'command', command: 'arbiter gate hook claude-code', timeout: 30 }],
          },
        ],
      },
    });
  });

  it('keeps existing settings and hooks, backs up, and is idempotent', async () => {
    const path = await fresh();
    await installClaudeCodeHook(path, 'true'); // creates the directory
    const original = {
      permissions: { allow: ['Bash(npm test)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-guard' }] }],
        Stop: [],
      },
      model: 'x',
    };
    await writeFile(path, JSON.stringify(original));
    const first = await installClaudeCodeHook(path);
    expect(first.changed).toBe(true);
    expect(first.backupPath).not.toBeNull();
    expect(JSON.parse(await readFile(first.backupPath!, 'utf8'))).toEqual(original);
    const installed = await read(path);
    expect(installed.permissions).toEqual(original.permissions);
    expect(installed.hooks.Stop).toEqual([]);
    expect(installed.hooks.PreToolUse).toHaveLength(2);
    expect(installed.hooks.PreToolUse[0].hooks[0].command).toBe('my-guard');

    const second = await installClaudeCodeHook(path);
    expect(second).toMatchObject({ changed: false, backupPath: null });
    expect(await read(path)).toEqual(installed);

    const removed = await uninstallClaudeCodeHook(path);
    expect(removed.changed).toBe(true);
    expect(await read(path)).toEqual(original);
    expect(await uninstallClaudeCodeHook(path)).toMatchObject({ changed: false });
  });

  it('removes the hooks member it created when uninstalling', async () => {
    const path = await fresh();
    await installClaudeCodeHook(path);
    await uninstallClaudeCodeHook(path);
    expect(await read(path)).toEqual({});
    const files = await readdir(join(path, '..'));
    expect(files.filter((name) => name.includes('arbiter-backup'))).toHaveLength(1);
  });

  it('refuses to touch a settings file that is not valid JSON', async () => {
    const path = await fresh();
    await installClaudeCodeHook(path);
    await writeFile(path, '{ "hooks": ');
    await expect(installClaudeCodeHook(path)).rejects.toThrow(/not valid JSON/);
    expect(await readFile(path, 'utf8')).toBe('{ "hooks": ');
  });
});
