import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations, SqliteDatabase } from '@arbiter/storage';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../src/auth/key-store.js';
import { serverConfigSchema } from '../../src/config/server-config.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { migrations } from '../../src/storage/migrations.js';
import { verdictRecord } from './team-gate-fixture.js';

// A real `arbiter serve` (UHP API and admin routes on) on a fresh SQLite data directory.
let server: RunningServer;
let dataDir: string;
let operatorKey: string;
const created: Record<string, string> = {};

async function call(method: string, route: string, key: string, body?: unknown) {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever JSON the server answered
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as Record<string, any>) };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-reporter-'));
  // The configuration file's toolGating.team reaches the team gate (and not the harness's gate).
  const config = serverConfigSchema.parse({ toolGating: { mode: 'shadow', team: { reportCwd: 'full' } } });
  server = await startServer({ port: 0, dataDir, logger: false, config });
  operatorKey = server.initialKey ?? '';
  for (const [name, role] of [
    ['hook', 'reporter'],
    ['dev', 'member'],
  ] as const) {
    const answer = await call('POST', '/v1/admin/keys', operatorKey, { principal: name, role });
    expect(answer.status).toBe(201);
    expect(answer.body?.role).toBe(role);
    created[role] = answer.body?.key;
  }
}, 60_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a reporter key', () => {
  it('sends records and reads the team policy', async () => {
    const key = created.reporter ?? '';
    const report = await call('POST', '/v1/gate/reports', key, { records: [verdictRecord()] });
    expect(report.status).toBe(200);
    expect(report.body?.accepted).toBe(1);
    const policy = await call('GET', '/v1/gate/policy', key);
    expect(policy.status).toBe(200);
    expect(policy.body?.report_cwd).toBe('full');
  });

  it.each([
    ['POST', '/v1/decision', { state: 'x', questions: { q: { type: 'noul', instructions: 'q' } } }],
    ['GET', '/v1/models', undefined],
    ['POST', '/v1/gate/check', { tool: 'Bash', arguments: { command: 'ls' } }],
    ['GET', '/v1/gate/records', undefined],
    ['GET', '/v1/gate/stats', undefined],
    ['GET', '/v1/gate/audit/verify', undefined],
    ['GET', '/v1/gate/suggestions', undefined],
    ['GET', '/v1/admin/keys', undefined],
    ['POST', '/v1/admin/keys', { role: 'operator' }],
    ['GET', '/v1/admin/principals', undefined],
    ['GET', '/v1/admin/budgets', undefined],
    ['GET', '/api/harness/v1/harnesses', undefined],
    ['GET', '/api/harness/v1/sessions', undefined],
    ['POST', '/api/harness/v1/responses', { input: 'hi' }],
  ])('is refused %s %s with 403 saying what the role may call', async (method, route, body) => {
    const refused = await call(method, route, created.reporter ?? '', body);
    expect(refused.status).toBe(403);
    expect(refused.body?.error).toMatchObject({
      type: 'permission_error',
      code: 'insufficient_scope',
      detail: { role: 'reporter' },
    });
    expect(refused.body?.error.message).toContain(
      'the key you sent is a reporter key, which may call only POST /v1/gate/reports (send gate verdict records) and GET /v1/gate/policy (read the team policy)',
    );
  });

  it('leaves member keys as they were: they reach the routes a reporter may not', async () => {
    const member = created.member ?? '';
    expect((await call('GET', '/v1/models', member)).status).toBe(200);
    expect((await call('GET', '/api/harness/v1/sessions', member)).status).toBe(200);
    expect((await call('GET', '/v1/gate/records', member)).status).toBe(200);
    expect((await call('GET', '/v1/admin/keys', member)).status).toBe(403);
  });

  it('is listed with its role, and an unknown role is refused', async () => {
    const keys = await call('GET', '/v1/admin/keys', operatorKey);
    expect(keys.body?.keys.map((entry: { role: string }) => entry.role).sort()).toEqual([
      'member',
      'operator',
      'reporter',
    ]);
    const unknown = await call('POST', '/v1/admin/keys', operatorKey, { role: 'auditor' });
    expect(unknown.status).toBe(400);
  });
});

describe('migration 0003-api-key-reporter-role', () => {
  it('keeps every key of an older database, roles and listing order included, and admits reporter keys', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-reporter-migration-'));
    try {
      const db = new BetterSqlite3(path.join(dir, 'arbiter.db'));
      db.pragma('foreign_keys = ON');
      const before = migrations.filter((migration) => migration.id < '0003');
      applyMigrations(db, before);
      const sql = new SqliteDatabase(db);
      const old = await KeyStore.open(sql);
      const first = await old.create('zed', 'operator');
      const second = await old.create('amy', 'member');
      await old.revoke(second.record.id);
      await expect(old.create('hook', 'reporter')).rejects.toThrow(/CHECK constraint/);
      await old.close();
      applyMigrations(db, migrations);
      const upgraded = await KeyStore.open(sql);
      expect(
        (await upgraded.list()).map((key) => [key.principal.name, key.role, key.revokedAt !== null]),
      ).toEqual([
        ['zed', 'operator', false],
        ['amy', 'member', true],
      ]);
      expect(upgraded.authenticateKey(first.key)?.role).toBe('operator');
      expect(upgraded.authenticateKey(second.key)).toBeNull();
      const reporter = await upgraded.create('hook', 'reporter');
      expect(upgraded.authenticateKey(reporter.key)?.role).toBe('reporter');
      await upgraded.close();
      db.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
