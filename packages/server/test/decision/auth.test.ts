import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, SqliteDatabase } from '@arbiter/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyStore } from '../../src/auth/key-store.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { migrations } from '../../src/storage/migrations.js';
import { SUPPORT_TICKET } from '../support/decision-test-app.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-auth-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(options: Parameters<typeof startServer>[0]): Promise<RunningServer> {
  const server = await startServer({ port: 0, ...options });
  cleanups.push(() => server.close());
  return server;
}

function decide(server: RunningServer, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/v1/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(SUPPORT_TICKET),
  });
}

describe('authentication over HTTP', () => {
  it('creates one key on first start, prints nothing again, and refuses missing or wrong keys', async () => {
    const dataDir = tempDir();
    const server = await start({ dataDir });
    expect(server.initialKey).toMatch(/^arb_/);
    const key = server.initialKey!;

    const missing = await decide(server);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(await missing.json()).toMatchObject({
      error: { type: 'authentication_error', code: 'missing_credential' },
    });
    const wrong = await decide(server, { authorization: 'Bearer arb_wrong' });
    expect(await wrong.json()).toMatchObject({
      error: { code: 'invalid_credential', message: 'the API key is not valid (unknown or revoked)' },
    });
    const basic = await decide(server, { authorization: 'Basic dXNlcjpwYXNz' });
    expect(await basic.json()).toMatchObject({ error: { code: 'invalid_credential' } });
    const models = await fetch(`${server.url}/v1/models`);
    expect(models.status).toBe(401);

    const ok = await decide(server, { authorization: `Bearer ${key}` });
    expect(ok.status).toBe(200);
    await server.close();

    const again = await start({ dataDir });
    expect(again.initialKey).toBeNull();
    expect((await decide(again, { authorization: `Bearer ${key}` })).status).toBe(200);
  });

  it('refuses a key revoked by another process at once', async () => {
    const dataDir = tempDir();
    const server = await start({ dataDir });
    // A second connection to the same database file, as `arbiter keys` would open it.
    const db = openDatabase(dataDir, migrations);
    cleanups.push(() => {
      db.close();
    });
    const keys = await KeyStore.open(new SqliteDatabase(db));
    cleanups.push(() => keys.close());
    const { key, record } = await keys.create('second');
    expect((await decide(server, { authorization: `Bearer ${key}` })).status).toBe(200);
    await keys.revoke(record.id);
    const refused = await decide(server, { authorization: `Bearer ${key}` });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 'invalid_credential' } });
    expect((await decide(server, { authorization: `Bearer ${server.initialKey}` })).status).toBe(200);
  });

  it('serves everyone as the local principal with auth off, and creates no key', async () => {
    const dataDir = tempDir();
    const server = await start({ dataDir, auth: false });
    expect(server.initialKey).toBeNull();
    expect(server.authMode).toBe('none');
    expect((await decide(server)).status).toBe(200);
    expect((await decide(server, { authorization: 'Bearer anything' })).status).toBe(200);
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok', auth: 'none' });
  });

  it('never writes the key or the authorization header to the log', async () => {
    const dataDir = tempDir();
    const lines: string[] = [];
    const server = await start({
      dataDir,
      logger: { level: 'trace', stream: { write: (line: string) => lines.push(line) } },
    });
    await decide(server, { authorization: `Bearer ${server.initialKey}`, 'x-request-id': 'log-check-1' });
    const log = lines.join('');
    expect(log).toContain('log-check-1');
    expect(log).not.toContain(server.initialKey!.slice(4));
  });
});
