import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type SqlDatabase, SqliteDatabase } from '@arbiter/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../test/fixtures/throwaway-postgres.js';
import { migrations } from '../storage/migrations.js';
import { openStorage } from '../storage/open-storage.js';
import { hashApiKey } from './api-key.js';
import { KeyStore } from './key-store.js';

// One store for both backends: what it answers is tested on each; how SQLite's lookups learn of
// another connection's commits is SQLite's own (below). PostgreSQL's reloads: test/cluster.
let cluster: ThrowawayPostgres;
const closers: (() => Promise<void> | void)[] = [];
beforeAll(async () => {
  cluster = await startThrowawayPostgres();
}, 120_000);
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await cluster?.stop();
});

type Backend = 'sqlite' | 'postgres';

/** A store on a fresh, migrated database of `backend`, and the database under it. */
async function freshStore(backend: Backend): Promise<{ db: SqlDatabase; keys: KeyStore }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-keys-'));
  const database = backend === 'postgres' ? await cluster.createDatabase() : undefined;
  const db = await openStorage({ dataDir, ...(database ? { database } : {}) }, migrations);
  const keys = await KeyStore.open(db);
  closers.push(async () => {
    await keys.close();
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { db, keys };
}

describe.each<Backend>(['sqlite', 'postgres'])('KeyStore on %s', (backend) => {
  it('stores only the hash and authenticates the key to its principal', async () => {
    const { db, keys } = await freshStore(backend);
    const { key, record } = await keys.create();
    expect(key).toMatch(/^arb_[A-Za-z0-9_-]{43}$/);
    expect(keys.authenticate(key)).toEqual(record.principal);
    expect(keys.authenticate(`${key}x`)).toBeNull();
    const row = await db.get<Record<string, unknown>>('SELECT * FROM api_keys');
    expect(row?.key_hash).toBe(hashApiKey(key));
    expect(JSON.stringify(row)).not.toContain(key.slice(4, 20));
  });

  it('creates a new principal per key unless one is named, and reuses a named one', async () => {
    const { keys } = await freshStore(backend);
    const first = await keys.create();
    const second = await keys.create();
    expect(first.record.principal.id).not.toBe(second.record.principal.id);
    const ops1 = await keys.create('ops');
    const ops2 = await keys.create('ops');
    expect(ops1.record.principal).toEqual(ops2.record.principal);
    expect(ops1.record.principal.name).toBe('ops');
    expect((await keys.list()).map((record) => record.principal.name)).toEqual([
      first.record.principal.name,
      second.record.principal.name,
      'ops',
      'ops',
    ]);
  });

  it('revokes by id, once', async () => {
    const { keys } = await freshStore(backend);
    const { key, record } = await keys.create();
    expect(await keys.hasActiveKeys()).toBe(true);
    expect(keys.authenticate(key)).toEqual(record.principal);
    expect(await keys.revoke(record.id)).toBe('revoked');
    expect(await keys.revoke(record.id)).toBe('already-revoked');
    expect(await keys.revoke('key_missing')).toBe('not-found');
    expect(keys.authenticate(key)).toBeNull();
    expect(await keys.hasActiveKeys()).toBe(false);
    expect((await keys.list())[0]?.revokedAt).toBeInstanceOf(Date);
  });

  it('gives keys the member role unless asked, and keeps one operator when told to', async () => {
    const { keys } = await freshStore(backend);
    const member = await keys.create('alice');
    const operator = await keys.create('ops', 'operator');
    expect(member.record.role).toBe('member');
    expect(keys.authenticateKey(member.key)).toEqual({ principal: member.record.principal, role: 'member' });
    expect(keys.authenticateKey(operator.key)?.role).toBe('operator');
    expect((await keys.list()).map((record) => record.role)).toEqual(['member', 'operator']);
    expect((await keys.listPrincipals()).map((record) => [record.name, record.activeKeys])).toEqual([
      ['alice', 1],
      ['ops', 1],
    ]);
    expect(await keys.revoke(operator.record.id, { keepAnOperator: true })).toBe('last-operator');
    expect(keys.authenticateKey(operator.key)?.role).toBe('operator');
    // Without the option (the CLI on the server's machine) the last operator key can go.
    expect(await keys.revoke(operator.record.id)).toBe('revoked');
    expect(keys.authenticateKey(operator.key)).toBeNull();
    expect(await keys.revoke(member.record.id, { keepAnOperator: true })).toBe('revoked');
  });

  it('makes one principal of two creations of the same new name at once', async () => {
    const { keys } = await freshStore(backend);
    const [one, two] = await Promise.all([keys.create('team'), keys.create('team')]);
    expect(one.record.principal).toEqual(two.record.principal);
    expect((await keys.listPrincipals()).map((record) => [record.name, record.activeKeys])).toEqual([
      ['team', 2],
    ]);
  });
});

describe('KeyStore on SQLite, told of other connections by the data version', () => {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  /** A second connection to the same file, as `arbiter keys` opens it while the server runs. */
  async function secondConnection(): Promise<{ keys: KeyStore; other: KeyStore }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-keys-'));
    const first = new SqliteDatabase(openDatabase(dir, migrations));
    const second = new SqliteDatabase(openDatabase(dir, migrations));
    const keys = await KeyStore.open(first);
    const other = await KeyStore.open(second);
    closers.push(async () => {
      await keys.close();
      await other.close();
      await first.close();
      await second.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    return { keys, other };
  }

  it('refuses a remembered key from the next event-loop turn on once another connection revokes it', async () => {
    const { keys, other } = await secondConnection();
    const { key, record } = await keys.create();
    expect(keys.authenticate(key)).toEqual(record.principal);
    await nextTurn();
    expect(keys.authenticate(key)).toEqual(record.principal);
    expect(await other.revoke(record.id)).toBe('revoked');
    await nextTurn();
    expect(keys.authenticate(key)).toBeNull();
  });

  it('reads the data version once per event-loop turn', async () => {
    const { keys, other } = await secondConnection();
    const { key, record } = await keys.create();
    await nextTurn();
    expect(keys.authenticate(key)).toEqual(record.principal);
    // A commit in the middle of a turn: requests handled in this turn arrived before it. The
    // revocation's own awaits are microtasks, so the turn is still the same one after it.
    expect(await other.revoke(record.id)).toBe('revoked');
    expect(keys.authenticate(key)).toEqual(record.principal);
    await nextTurn();
    expect(keys.authenticate(key)).toBeNull();
  });

  it('accepts a key created by another connection after this store has answered', async () => {
    const { keys, other } = await secondConnection();
    expect(keys.authenticate('arb_unknown')).toBeNull();
    const { key, record } = await other.create();
    expect(keys.authenticate(key)).toEqual(record.principal);
  });

  it('refuses at once a key revoked by another store on the same connection, whose commits move no data version', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-keys-'));
    const db = new SqliteDatabase(openDatabase(dir, migrations));
    const keys = await KeyStore.open(db);
    const admin = await KeyStore.open(db);
    closers.push(async () => {
      await keys.close();
      await admin.close();
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const { key, record } = await admin.create();
    expect(keys.authenticate(key)).toEqual(record.principal);
    expect(await admin.revoke(record.id)).toBe('revoked');
    expect(keys.authenticate(key)).toBeNull();
  });
});
