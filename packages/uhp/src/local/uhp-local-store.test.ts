import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfigDir } from './config-dir.js';
import { UhpLocalStore } from './uhp-local-store.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'arbiter-store-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const connection = {
  url: 'http://127.0.0.1:9/api/harness',
  apiKey: 'sk-secret',
  protocolVersion: '2026-08-11',
  conformanceClass: 'full',
  savedAt: 1,
};

describe('UhpLocalStore', () => {
  it('round-trips connections and sessions with owner-only permissions', async () => {
    const directory = join(root, 'config', 'arbiter');
    const store = await UhpLocalStore.open(directory);
    expect(store.activeConnection()).toBeNull();
    store.saveConnection(connection);
    store.useHarness('chrn_b');
    const base = { server: connection.url, harnessId: 'chrn_b', lastResponseId: 'resp_1' };
    store.recordSession({ ...base, name: 'one', sessionId: 'hsess1', updatedAt: 10 });
    store.recordSession({ ...base, name: 'two', sessionId: 'hsess2', updatedAt: 20 });
    store.recordSession({
      ...base,
      name: 'one',
      sessionId: 'hsess1',
      lastResponseId: 'resp_3',
      updatedAt: 30,
    });
    await store.save();

    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);
    const reopened = await UhpLocalStore.open(directory);
    expect(reopened.activeConnection()).toMatchObject({ harnessId: 'chrn_b', apiKey: 'sk-secret' });
    expect(reopened.latestSession(connection.url)).toMatchObject({ name: 'one', lastResponseId: 'resp_3' });
    expect(reopened.sessions(connection.url)).toHaveLength(2);
    expect(reopened.session('two', 'http://elsewhere')).toBeNull();
  });

  it('names the file when it is corrupt instead of silently starting over', async () => {
    await writeFile(join(root, 'uhp.json'), '{"version": 7}');
    await expect(UhpLocalStore.open(root)).rejects.toThrow(
      `${join(root, 'uhp.json')} is not an Arbiter UHP store`,
    );
    await writeFile(join(root, 'uhp.json'), 'not json');
    await expect(UhpLocalStore.open(root)).rejects.toThrow('is not valid JSON');
    expect(await readFile(join(root, 'uhp.json'), 'utf8')).toBe('not json');
  });
});

describe('resolveConfigDir', () => {
  it('prefers ARBITER_CONFIG_DIR, then an absolute XDG_CONFIG_HOME, then the platform default', () => {
    expect(
      resolveConfigDir({ ARBITER_CONFIG_DIR: '/x/y', XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/u'),
    ).toBe('/x/y');
    expect(resolveConfigDir({ XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/u')).toBe('/xdg/arbiter');
    expect(resolveConfigDir({ XDG_CONFIG_HOME: 'relative' }, 'linux', '/home/u')).toBe(
      '/home/u/.config/arbiter',
    );
    expect(resolveConfigDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/arbiter');
  });
});
