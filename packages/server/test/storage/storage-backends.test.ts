import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PrepaidBudgets } from '@arbiter/harness-server';
import type { SqlDatabase } from '@arbiter/storage';
import type { Harness, UhpResponse } from '@arbiter/uhp/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StoredSession, UhpStore } from '../../../harness-server/src/uhp/storage/uhp-store.js';
import { migrations } from '../../src/storage/migrations.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../fixtures/throwaway-postgres.js';

// One cluster for the whole file; every test gets a database of its own.
let cluster: ThrowawayPostgres;
const opened: SqlDatabase[] = [];
const dirs: string[] = [];
beforeAll(async () => {
  cluster = await startThrowawayPostgres();
});
afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
  await cluster?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

type Backend = 'sqlite' | 'postgres';

/** A fresh, migrated database of the backend, and a way to open a second connection to it (another node). */
async function freshDatabase(
  backend: Backend,
): Promise<{ db: SqlDatabase; another(): Promise<SqlDatabase> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-store-'));
  dirs.push(dataDir);
  const database = backend === 'postgres' ? await cluster.createDatabase() : undefined;
  const open = async () => {
    const db = await openStorage({ dataDir, ...(database ? { database } : {}) }, migrations);
    opened.push(db);
    return db;
  };
  return { db: await open(), another: open };
}

const harness = (id: string, name = 'h'): Harness => ({ id, name, base: 'agent', createdAt: 1 }) as Harness;
const session = (id: string, principalId: string, createdAt: number): StoredSession => ({
  id,
  principalId,
  harnessId: 'chrn_1',
  containerId: `cntr_${id}`,
  title: id,
  createdAt,
  updatedAt: createdAt,
});
const body = (id: string, status: UhpResponse['status'] = 'in_progress') =>
  ({ id, object: 'response', created_at: 1, status, output: [], metadata: {} }) as unknown as UhpResponse;

describe.each<Backend>(['sqlite', 'postgres'])('storage on %s', (backend) => {
  it('applies its migrations once, also when two nodes open the database at the same time', async () => {
    const { db, another } = await freshDatabase(backend);
    await Promise.all([another(), another()]);
    const rows = await db.all<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual(migrations.map((migration) => migration.id).sort());
  });

  it('keeps every object inside its principal', async () => {
    const { db } = await freshDatabase(backend);
    const store = new UhpStore(db);
    await store.insertHarness('alice', harness('chrn_a'), true);
    expect((await store.getHarness('alice', 'chrn_a'))?.harness.id).toBe('chrn_a');
    expect(await store.getHarness('bob', 'chrn_a')).toBeUndefined();
    expect(await store.defaultHarness('bob')).toBeUndefined();
    expect(await store.deleteHarness('bob', 'chrn_a')).toBe(false);
    expect(await store.deleteHarness('alice', 'chrn_a')).toBe(true);
    expect(await store.getHarness('alice', 'chrn_a')).toBeUndefined();
    expect((await store.getHarnessIncludingDeleted('alice', 'chrn_a'))?.harness.id).toBe('chrn_a');

    await store.insertSession(session('hsess_a', 'alice', 1000));
    expect(await store.getSession('bob', 'hsess_a')).toBeUndefined();
    expect(await store.getSessionByContainer('bob', 'cntr_hsess_a')).toBeUndefined();
    await store.insertResponse({
      id: 'resp_a',
      principalId: 'alice',
      sessionId: 'hsess_a',
      harnessId: 'chrn_a',
      turnIndex: 0,
      body: body('resp_a'),
      input: [{ text: 'hi' }],
    });
    expect(await store.getResponse('bob', 'resp_a')).toBeUndefined();
    expect(await store.hideResponse('bob', 'resp_a')).toBe(false);
    expect(await store.hideResponse('alice', 'resp_a')).toBe(true);
    expect(await store.getResponse('alice', 'resp_a')).toBeUndefined();
    expect((await store.getResponseIncludingHidden('alice', 'resp_a'))?.input).toEqual([{ text: 'hi' }]);
    // A later save never makes a hidden response visible again.
    await store.saveResponseBody(body('resp_a', 'completed'));
    expect(await store.getResponse('alice', 'resp_a')).toBeUndefined();
    expect(await store.responseStatus('resp_a')).toBe('completed');
  });

  it('pages sessions newest first without skipping or repeating rows that share a timestamp', async () => {
    const { db } = await freshDatabase(backend);
    const store = new UhpStore(db);
    for (const [id, at] of [
      ['hsess_1', 5],
      ['hsess_2', 5],
      ['hsess_3', 5],
      ['hsess_4', 9],
      ['hsess_5', 1],
    ] as const)
      await store.insertSession(session(id, 'alice', at));
    await store.insertSession(session('hsess_x', 'bob', 7));
    const seen: string[] = [];
    let after: { createdAt: number; id: string } | undefined;
    for (;;) {
      const page = await store.listSessions('alice', { limit: 2, ...(after ? { after } : {}) });
      seen.push(...page.map((row) => row.id));
      const last = page.at(-1);
      if (page.length < 2 || !last) break;
      after = { createdAt: last.createdAt, id: last.id };
    }
    expect(seen).toEqual(['hsess_4', 'hsess_3', 'hsess_2', 'hsess_1', 'hsess_5']);
  });

  it('keeps the event log in order, replays after any sequence number, and files in insertion order', async () => {
    const { db } = await freshDatabase(backend);
    const store = new UhpStore(db);
    await store.insertSession(session('hsess_e', 'alice', 1));
    await store.insertResponse({
      id: 'resp_e',
      principalId: 'alice',
      sessionId: 'hsess_e',
      harnessId: 'chrn_1',
      turnIndex: await store.nextTurnIndex('hsess_e'),
      body: body('resp_e'),
      input: [],
    });
    expect(await store.lastSequenceNumber('resp_e')).toBe(-1);
    for (let sequence = 0; sequence < 12; sequence++)
      await store.insertEvent('resp_e', { type: 'response.output_text.delta', sequence_number: sequence });
    // The same sequence number twice is refused: the log has no duplicates to replay.
    await expect(
      store.insertEvent('resp_e', { type: 'response.output_text.delta', sequence_number: 3 }),
    ).rejects.toThrow();
    expect(await store.lastSequenceNumber('resp_e')).toBe(11);
    expect((await store.eventsAfter('resp_e', 9)).map((event) => event.sequence_number)).toEqual([10, 11]);
    expect((await store.eventAt('resp_e', 4))?.sequence_number).toBe(4);
    expect(await store.nextTurnIndex('hsess_e')).toBe(1);
    expect((await store.inProgressResponses()).map((row) => row.id)).toEqual(['resp_e']);
    expect(await store.runningResponseOfSession('hsess_e')).toBe('resp_e');

    for (const id of ['file_z', 'file_a', 'file_m'])
      await store.insertFile({
        id,
        principalId: 'alice',
        containerId: 'cntr_hsess_e',
        sessionId: 'hsess_e',
        responseId: 'resp_e',
        filename: `${id}.txt`,
        mediaType: 'text/plain',
        bytes: 3,
        purpose: 'artifact',
        createdAt: 1,
      });
    expect((await store.sessionFiles('hsess_e')).map((file) => file.id)).toEqual([
      'file_z',
      'file_a',
      'file_m',
    ]);
    expect(await store.getContainerFile('cntr_other', 'file_a')).toBeUndefined();

    const share = await store.upsertShare('alice', 'hsess_e', 'token-one');
    expect(await store.upsertShare('alice', 'hsess_e', 'token-two')).toEqual(share);
    expect((await store.sessionOfShareToken('token-one'))?.id).toBe('hsess_e');
    await store.insertIdempotencyKey('alice', 'k1', 'resp_e', false);
    await store.deleteSession('alice', 'hsess_e');
    expect(await store.eventsAfter('resp_e', -1)).toEqual([]);
    expect(await store.sessionOfShareToken('token-one')).toBeUndefined();
    expect(await store.findIdempotencyKey('alice', 'k1', 0)).toBeUndefined();
  });

  it('writes a burst of events in one call, in order, and refuses a burst that repeats a number whole', async () => {
    const { db } = await freshDatabase(backend);
    const store = new UhpStore(db);
    await store.insertSession(session('hsess_b', 'alice', 1));
    await store.insertResponse({
      id: 'resp_b',
      principalId: 'alice',
      sessionId: 'hsess_b',
      harnessId: 'chrn_1',
      turnIndex: 0,
      body: body('resp_b'),
      input: [],
    });
    // More than one PostgreSQL statement's worth (200), with text that looks like placeholders.
    const burst = Array.from({ length: 450 }, (_, sequence) => ({
      type: 'response.output_text.delta',
      delta: `? $1 '${sequence}'`,
      sequence_number: sequence,
    }));
    await store.insertEvents('resp_b', burst);
    const read = await store.eventsAfter('resp_b', -1);
    expect(read).toEqual(burst);
    await expect(
      store.insertEvents('resp_b', [{ type: 'response.output_text.delta', sequence_number: 450 }, burst[7]!]),
    ).rejects.toThrow();
    // One statement per 200 events on both backends: the repeating burst is refused whole.
    expect(await store.lastSequenceNumber('resp_b')).toBe(449);
  });

  it('forgets an Idempotency-Key older than the retention', async () => {
    const { db } = await freshDatabase(backend);
    const store = new UhpStore(db);
    await store.insertIdempotencyKey('alice', 'k', 'resp_1', true);
    expect(await store.findIdempotencyKey('alice', 'k', 0)).toBe('resp_1');
    expect(await store.findIdempotencyKey('bob', 'k', 0)).toBeUndefined();
    expect(await store.findIdempotencyKey('alice', 'k', Date.now() + 1000)).toBeUndefined();
    expect(await store.findIdempotencyKey('alice', 'k', 0)).toBeUndefined();
  });

  it('rolls a failed transaction back whole, and a statement issued meanwhile is not part of it', async () => {
    const { db } = await freshDatabase(backend);
    const store = new UhpStore(db);
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => {
      inside = resolve;
    });
    const failing = store.transaction(async (tx) => {
      await tx.insertSession(session('hsess_rolled', 'alice', 1));
      inside();
      // Let the statement below be issued while this transaction is open.
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('refused');
    });
    await entered;
    const outside = store.insertSession(session('hsess_kept', 'alice', 2));
    await expect(failing).rejects.toThrow('refused');
    await outside;
    expect(await store.getSession('alice', 'hsess_rolled')).toBeUndefined();
    expect((await store.getSession('alice', 'hsess_kept'))?.id).toBe('hsess_kept');
  });

  it('two nodes reserving from one balance at once never overdraw, and a reservation settles once', async () => {
    const { db, another } = await freshDatabase(backend);
    const pricing = { outputPricePerMillionTokens: { m: 1_000_000 } };
    // Two PostgreSQL nodes are two pools. Two SQLite connections in one thread would block each
    // other's BEGIN IMMEDIATE synchronously, so there the second node shares the connection (other
    // processes serialise on SQLite's lock: test/billing/budgets.test.ts kills one mid-task).
    const second = backend === 'postgres' ? await another() : db;
    const nodes = [new PrepaidBudgets(db, pricing), new PrepaidBudgets(second, pricing)];
    // 1 unit per token × 10 tokens = 10 units a task; the balance covers exactly 5.
    await nodes[0]!.credit('alice', 50 * 1_000_000_000);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        nodes[index % 2]!.reserve({
          principalId: 'alice',
          responseId: `resp_${index}`,
          model: 'm',
          maxOutputTokens: 10,
        }),
      ),
    );
    const accepted = outcomes.filter((outcome) => outcome.metered && outcome.ok);
    expect(accepted).toHaveLength(5);
    expect(await nodes[1]!.account('alice')).toMatchObject({
      balanceNanos: 0,
      reservedNanos: 50 * 1_000_000_000,
    });
    const reservedId = `resp_${outcomes.findIndex((outcome) => outcome.metered && outcome.ok)}`;
    // Both nodes settle the same task at once (a recovered task and its late original): one wins.
    const settlements = await Promise.all(
      nodes.flatMap((node) => [node.settle(reservedId, { output_tokens: 4 }), node.settle(reservedId, null)]),
    );
    expect(settlements.filter((settlement) => settlement !== null)).toHaveLength(1);
    const entries = await nodes[0]!.entries('alice');
    expect(entries.filter((entry) => entry.kind === 'settle')).toHaveLength(1);
    const sum = entries.reduce((total, entry) => total + entry.amountNanos, 0);
    expect((await nodes[0]!.account('alice'))?.balanceNanos).toBe(sum);
  });
});

describe('PostgreSQL connection strings', () => {
  it('a database that cannot be reached is named in the error without its password', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-store-'));
    dirs.push(dataDir);
    const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-nopg-'));
    dirs.push(socketDir);
    const secret = 'correct-horse-battery-staple';
    const failure = await openStorage(
      { dataDir, database: `postgresql://arbiter:${secret}@/arbiter?host=${encodeURIComponent(socketDir)}` },
      migrations,
    ).then(
      () => null,
      (error: Error) => error,
    );
    expect(failure?.message).toMatch(/cannot open the PostgreSQL database postgresql:\/\/arbiter:\*\*\*@/);
    expect(String(failure?.message)).not.toContain(secret);
    expect(String(failure?.stack)).not.toContain(secret);
  });

  it('refuses a database value that is not a PostgreSQL URL, without echoing a password', async () => {
    await expect(
      openStorage({ dataDir: os.tmpdir(), database: 'mysql://root:hunter2@db/arbiter' }, migrations),
    ).rejects.toThrow(
      /must be a postgres:\/\/ or postgresql:\/\/ connection string, not "mysql:\/\/root:\*\*\*@db\/arbiter"/,
    );
  });
});
