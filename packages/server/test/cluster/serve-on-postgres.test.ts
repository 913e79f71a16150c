import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../fixtures/throwaway-postgres.js';

// This file stops its cluster in its last test, so it has one of its own.
let cluster: ThrowawayPostgres;
let server: RunningServer;
let dataDir: string;
beforeAll(async () => {
  cluster = await startThrowawayPostgres();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-serve-pg-'));
  server = await startServer({
    port: 0,
    dataDir,
    database: await cluster.createDatabase(),
    harness: { offlineChunkDelayMs: 0 },
  });
});
afterAll(async () => {
  await server?.close();
  await cluster?.stop().catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('startServer with a PostgreSQL database', () => {
  it('keeps everything in PostgreSQL: the first key, tasks, and no SQLite file in the data directory', async () => {
    expect(server.initialKey).toMatch(/^arb_/);
    const headers = { authorization: `Bearer ${server.initialKey}`, 'content-type': 'application/json' };
    const task = await fetch(`${server.url}/api/harness/v1/responses`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ input: '@say stored in postgres' }),
    });
    const body = (await task.json()) as { status: string; output: unknown };
    expect(body.status).toBe('completed');
    expect(JSON.stringify(body.output)).toContain('stored in postgres');
    const refused = await fetch(`${server.url}/api/harness/v1/responses`, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer arb_not_a_key' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    expect(fs.existsSync(path.join(dataDir, 'arbiter.db'))).toBe(false);
  });

  it('is live and ready while the database answers, live and not ready once it is gone', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);

    await cluster.stop();
    const notReady = await fetch(`${server.url}/readyz`);
    expect([notReady.status, await notReady.json()]).toEqual([
      503,
      { status: 'not_ready', reason: 'database' },
    ]);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
