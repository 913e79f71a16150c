import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SqlDatabase } from '@arbiter/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../src/auth/key-store.js';
import { migrations } from '../../src/storage/migrations.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../fixtures/throwaway-postgres.js';

let cluster: ThrowawayPostgres;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  cluster = await startThrowawayPostgres();
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await cluster?.stop();
});

async function nodeDatabase(database: string): Promise<SqlDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-keys-'));
  const db = await openStorage({ dataDir, database }, migrations);
  closers.push(async () => {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return db;
}

/** Resolves at the next reload of `store` that `trigger` causes. */
function nextReload(store: KeyStore, trigger: () => Promise<unknown>): Promise<void> {
  const reloaded = new Promise<void>((resolve) => {
    store.onReloaded = () => {
      store.onReloaded = () => {};
      resolve();
    };
  });
  return trigger().then(() => reloaded);
}

describe('API keys shared by the nodes of one PostgreSQL database', () => {
  it('a key created on one node is accepted by another, and its revocation reaches the other by notification', async () => {
    const database = await cluster.createDatabase();
    const a = await KeyStore.open(await nodeDatabase(database));
    // The periodic reload is pushed out of the test: only the notification can tell node B.
    const b = await KeyStore.open(await nodeDatabase(database), { reloadMs: 3_600_000 });
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    let created!: Awaited<ReturnType<KeyStore['create']>>;
    await nextReload(b, async () => {
      created = await a.create('ops');
    });
    expect(b.authenticate(created.key)).toEqual(created.record.principal);
    expect(b.authenticate(`${created.key}x`)).toBeNull();

    expect(await a.hasActiveKeys()).toBe(true);
    await nextReload(b, async () => expect(await a.revoke(created.record.id)).toBe('revoked'));
    expect(b.authenticate(created.key)).toBeNull();
    expect(a.authenticate(created.key)).toBeNull();
    expect(await b.revoke(created.record.id)).toBe('already-revoked');
    expect(await b.revoke('key_missing')).toBe('not-found');
    expect((await b.list()).map((record) => [record.principal.name, record.revokedAt !== null])).toEqual([
      ['ops', true],
    ]);
    expect(await b.hasActiveKeys()).toBe(false);
  });

  it('two nodes creating keys for the same new principal name make one principal', async () => {
    const database = await cluster.createDatabase();
    const a = await KeyStore.open(await nodeDatabase(database));
    const b = await KeyStore.open(await nodeDatabase(database));
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    const [one, two] = await Promise.all([a.create('team'), b.create('team')]);
    expect(one.record.principal).toEqual(two.record.principal);
  });
});
