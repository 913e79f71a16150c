import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@arbiter/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionApiKey } from '../src/commands/uhp/connect-action.js';
import { runArbiter } from './support/run-arbiter.js';

// `arbiter uhp connect` as the README has a user run it: the server's root URL (the first line of
// its banner) and the key in ARBITER_API_KEY. The built CLI in a subprocess against a real
// `startServer` on loopback with API keys on.

let home: string;
let server: RunningServer;
let key: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'arbiter-uhp-connect-'));
  server = await startServer({ port: 0, host: '127.0.0.1', dataDir: join(home, 'data') });
  if (server.initialKey === null) throw new Error('a fresh data directory must give a first key');
  key = server.initialKey;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await rm(home, { recursive: true, force: true });
});

const configDir = (name: string) => join(home, name);
const connect = (url: string, env: Record<string, string>, config: string) =>
  runArbiter(['uhp', 'connect', url], { env: { HOME: home, ARBITER_CONFIG_DIR: configDir(config), ...env } });

async function savedConnections(config: string): Promise<Record<string, { apiKey?: string }>> {
  return JSON.parse(await readFile(join(configDir(config), 'uhp.json'), 'utf8')).connections;
}

describe('arbiter uhp connect', () => {
  it('finds /api/harness below the root URL and sends the key from ARBITER_API_KEY', async () => {
    const run = await connect(server.url, { ARBITER_API_KEY: key }, 'root');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Server        ${server.url}/api/harness`);
    expect(run.stdout).toContain('bearer key accepted');
    expect(run.stdout + run.stderr).not.toContain(key);
    const saved = await savedConnections('root');
    expect(Object.keys(saved)).toEqual([`${server.url}/api/harness`]);
    expect(saved[`${server.url}/api/harness`]?.apiKey).toBe(key);
  });

  it('still takes the UHP URL itself, and a wrong key is refused there, not hidden by the fallback', async () => {
    const direct = await connect(`${server.url}/api/harness/`, { ARBITER_API_KEY: key }, 'direct');
    expect(direct.code, direct.stderr).toBe(0);
    expect(Object.keys(await savedConnections('direct'))).toEqual([`${server.url}/api/harness`]);

    const wrong = await connect(server.url, { ARBITER_API_KEY: 'arb_not-a-key' }, 'wrong');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/key/i);
    expect(wrong.stderr).not.toContain('arb_not-a-key');
  });

  it('reports the URL given when no UHP API answers there or below it', async () => {
    const run = await connect(`${server.url}/nothing-here`, { ARBITER_API_KEY: key }, 'nowhere');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('404');
  });
});

describe('connectionApiKey', () => {
  it('prefers --api-key, then ARBITER_UHP_API_KEY, then ARBITER_API_KEY; empty variables count as unset', () => {
    const env = { ARBITER_UHP_API_KEY: 'uhp', ARBITER_API_KEY: 'arbiter' };
    expect(connectionApiKey('given', env)).toBe('given');
    expect(connectionApiKey(undefined, env)).toBe('uhp');
    expect(connectionApiKey(undefined, { ARBITER_API_KEY: 'arbiter' })).toBe('arbiter');
    expect(connectionApiKey(undefined, { ARBITER_UHP_API_KEY: '', ARBITER_API_KEY: 'arbiter' })).toBe(
      'arbiter',
    );
    expect(connectionApiKey(undefined, {})).toBeUndefined();
  });
});
