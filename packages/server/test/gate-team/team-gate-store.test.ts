import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SqlDatabase } from '@arbiter/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../src/auth/key-store.js';
import { TeamGateStore } from '../../src/gate/team-gate-store.js';
import { migrations } from '../../src/storage/migrations.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../fixtures/throwaway-postgres.js';
import { outcomeRecord, verdictRecord } from './team-gate-fixture.js';

// One PostgreSQL cluster for the file; every test gets a fresh database of each backend.
let cluster: ThrowawayPostgres;
const opened: SqlDatabase[] = [];
const dirs: string[] = [];
beforeAll(async () => {
  cluster = await startThrowawayPostgres();
}, 120_000);
afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
  await cluster?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

type Backend = 'sqlite' | 'postgres';

/** A fresh, migrated database, and a way to open a second connection to it (another node). */
async function fresh(backend: Backend): Promise<{ db: SqlDatabase; another(): Promise<SqlDatabase> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-gate-team-store-'));
  dirs.push(dataDir);
  const database = backend === 'postgres' ? await cluster.createDatabase() : undefined;
  const open = async () => {
    const db = await openStorage({ dataDir, ...(database ? { database } : {}) }, migrations);
    opened.push(db);
    return db;
  };
  return { db: await open(), another: open };
}

const at = (iso: string) => new Date(iso);
const judgement = (iso: string) => ({ nowMs: Date.parse(iso), declineAfterMs: 3_600_000 });
const key = (char: string) => char.repeat(64);

describe.each<Backend>(['sqlite', 'postgres'])('the team gate store on %s', (backend) => {
  it('stores reporter keys (migration 0003 widened the role check) and refuses other roles', async () => {
    const { db } = await fresh(backend);
    const keys = await KeyStore.open(db);
    try {
      const created = await keys.create('hook', 'reporter');
      expect(keys.authenticateKey(created.key)).toEqual({
        principal: created.record.principal,
        role: 'reporter',
      });
      await expect(
        db.run(
          "INSERT INTO api_keys (id, principal_id, key_hash, hint, created_at, role) VALUES ('k', ?, 'h', 'h', 1, 'root')",
          [created.record.principal.id],
        ),
      ).rejects.toThrow(/check/i);
    } finally {
      await keys.close();
    }
  });

  it('appends, skips duplicates, folds outcomes and verifies the chain', async () => {
    const { db } = await fresh(backend);
    const store = new TeamGateStore(db);
    const ask = verdictRecord({ call_key: key('1') });
    const first = await store.append(
      'alice',
      [ask, verdictRecord({ effective: 'DENY' })],
      at('2026-11-20T10:00:00Z'),
    );
    expect(first).toMatchObject({ accepted: 2, duplicates: 0 });
    const second = await store.append('alice', [ask, outcomeRecord(ask)], at('2026-11-20T10:01:00Z'));
    expect(second).toMatchObject({ accepted: 1, duplicates: 1 });
    expect(await store.head('alice')).toBe(second.head);
    expect(await store.verify('alice')).toEqual({ ok: true, entries: 3, head: second.head });
    expect(await store.verify('bob')).toEqual({ ok: true, entries: 0, head: '0'.repeat(64) });

    const page = await store.records(
      { principalId: 'alice' },
      { limit: 10 },
      judgement('2026-11-20T12:00:00Z'),
    );
    expect(page.data.map((row) => [row.record.effective, row.outcome, row.outcome_at])).toEqual([
      ['DENY', 'denied', null],
      ['ASK', 'approved', '2026-11-20T10:01:00.000Z'],
    ]);
    // Rows of a principal with no entry in `principals` (the local principal under --no-auth) keep their id as name.
    expect(page.data[0]?.principal).toEqual({ id: 'alice', name: 'alice' });

    await db.run("UPDATE gate_team_entries SET time = '2026-11-20T10:00:01.000Z' WHERE seq = 1");
    const broken = await store.verify('alice');
    expect(broken).toMatchObject({ ok: false, entries: 0, seq: 1 });
  });

  it('keeps one chain per principal when appends race (two nodes on PostgreSQL)', async () => {
    const { db, another } = await fresh(backend);
    // SQLite is served by one process, whose connection queues transactions; a second connection
    // in the same process would block the event loop on the file lock the first one holds.
    const nodes = [new TeamGateStore(db), new TeamGateStore(backend === 'postgres' ? await another() : db)];
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        nodes[index % 2]?.append('alice', [verdictRecord(), verdictRecord()], at('2026-11-20T10:00:00Z')),
      ),
    );
    expect(await nodes[0]?.verify('alice')).toMatchObject({ ok: true, entries: 24 });
  });

  it('counts kinds across principals, records decisions and serves the accepted rules in a stable order', async () => {
    const { db } = await fresh(backend);
    const store = new TeamGateStore(db);
    for (const [principal, command] of [
      ['alice', 'npm run build --prod'],
      ['bob', 'npm run build'],
      ['bob', 'make test'],
    ] as const) {
      const ask = verdictRecord({ call_key: key('2'), call: { command, summary: command } });
      await store.append(principal, [ask, outcomeRecord(ask)], at('2026-11-20T10:00:00Z'));
    }
    await store.append(
      'bob',
      [verdictRecord({ call_key: key('3'), call: { command: 'make test', summary: 'm' } })],
      at('2026-11-20T10:00:00Z'),
    );
    expect(await store.suggestionCounts(judgement('2026-11-20T12:00:00Z'))).toEqual([
      { rule: 'Bash(make test:*)', asked: 2, approved: 1, declined: 1 },
      { rule: 'Bash(npm run build:*)', asked: 2, approved: 2, declined: 0 },
    ]);
    expect(await store.suggestionExamples('Bash(npm run build:*)')).toEqual([
      'npm run build',
      'npm run build --prod',
    ]);

    const ops = { id: 'prn_ops', name: 'ops' };
    await store.decide('sug_b', 'Bash(npm run build:*)', 'accepted', ops, at('2026-11-21T09:00:00Z'));
    await store.decide('sug_a', 'Bash(make test:*)', 'accepted', ops, at('2026-11-21T09:05:00Z'));
    // A rejection of a rule never accepted leaves the policy's time alone.
    await store.decide('sug_c', 'WebFetch(domain:example.com)', 'rejected', ops, at('2026-11-21T09:10:00Z'));
    expect(await store.acceptedRules()).toEqual({
      rules: ['Bash(make test:*)', 'Bash(npm run build:*)'],
      updatedMs: Date.parse('2026-11-21T09:05:00Z'),
    });
    await store.decide('sug_a', 'Bash(make test:*)', 'rejected', ops, at('2026-11-21T09:20:00Z'));
    expect(await store.acceptedRules()).toEqual({
      rules: ['Bash(npm run build:*)'],
      updatedMs: Date.parse('2026-11-21T09:20:00Z'),
    });
    expect((await store.decisions()).map((decision) => [decision.rule, decision.status])).toEqual([
      ['Bash(make test:*)', 'rejected'],
      ['Bash(npm run build:*)', 'accepted'],
      ['WebFetch(domain:example.com)', 'rejected'],
    ]);
  });

  it('computes stats with the same numbers on both backends', async () => {
    const { db } = await fresh(backend);
    const store = new TeamGateStore(db);
    const ask = verdictRecord({ call_key: key('4'), program: 'npm' });
    await store.append(
      'alice',
      [
        ask,
        verdictRecord({ effective: 'ALLOW', program: 'ls' }),
        verdictRecord({ call_key: key('5'), program: 'npm' }),
      ],
      at('2026-11-20T23:59:59Z'),
    );
    await store.append(
      'alice',
      [outcomeRecord(ask), verdictRecord({ effective: 'DENY' })],
      at('2026-11-21T00:00:00Z'),
    );
    expect(await store.stats({}, judgement('2026-11-21T02:00:00Z'))).toEqual({
      per_day: [
        { day: '2026-11-20', ALLOW: 1, DENY: 0, ASK: 2 },
        { day: '2026-11-21', ALLOW: 0, DENY: 1, ASK: 0 },
      ],
      asked_programs: [{ program: 'npm', asked: 2, approved: 1, declined: 1 }],
      approval: { asked: 2, approved: 1, declined: 1, pending: 0, rate: 0.5 },
    });
  });
});
