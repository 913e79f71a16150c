import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '@arbiter/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../storage/migrations.js';
import { hashApiKey } from './api-key.js';
import { KeyStore } from './key-store.js';

const dirs: string[] = [];
function freshStore() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-keys-'));
  dirs.push(dir);
  const db = openDatabase(dir, migrations);
  return { db, keys: new KeyStore(db), dir };
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyStore', () => {
  it('stores only the hash and authenticates the key to its principal', () => {
    const { db, keys } = freshStore();
    const { key, record } = keys.create();
    expect(key).toMatch(/^arb_[A-Za-z0-9_-]{43}$/);
    expect(keys.authenticate(key)).toEqual(record.principal);
    expect(keys.authenticate(`${key}x`)).toBeNull();
    const row = db.prepare('SELECT * FROM api_keys').get() as Record<string, unknown>;
    expect(row.key_hash).toBe(hashApiKey(key));
    expect(JSON.stringify(row)).not.toContain(key.slice(4, 20));
    db.close();
  });

  it('creates a new principal per key unless one is named, and reuses a named one', () => {
    const { db, keys } = freshStore();
    const first = keys.create();
    const second = keys.create();
    expect(first.record.principal.id).not.toBe(second.record.principal.id);
    const ops1 = keys.create('ops');
    const ops2 = keys.create('ops');
    expect(ops1.record.principal).toEqual(ops2.record.principal);
    expect(ops1.record.principal.name).toBe('ops');
    expect(keys.list().map((record) => record.principal.name)).toEqual([
      first.record.principal.name,
      second.record.principal.name,
      'ops',
      'ops',
    ]);
    db.close();
  });

  it('revokes by id, once', () => {
    const { db, keys } = freshStore();
    const { key, record } = keys.create();
    expect(keys.hasActiveKeys()).toBe(true);
    expect(keys.authenticate(key)).toEqual(record.principal);
    expect(keys.revoke(record.id)).toBe('revoked');
    expect(keys.revoke(record.id)).toBe('already-revoked');
    expect(keys.revoke('key_missing')).toBe('not-found');
    expect(keys.authenticate(key)).toBeNull();
    expect(keys.hasActiveKeys()).toBe(false);
    expect(keys.list()[0]?.revokedAt).toBeInstanceOf(Date);
    db.close();
  });

  it('refuses a remembered key from the next event-loop turn on once another connection revokes it', async () => {
    const { db, keys, dir } = freshStore();
    const { key, record } = keys.create();
    const other = openDatabase(dir, migrations);
    expect(keys.authenticate(key)).toEqual(record.principal);
    await nextTurn();
    expect(keys.authenticate(key)).toEqual(record.principal);
    expect(new KeyStore(other).revoke(record.id)).toBe('revoked');
    await nextTurn();
    expect(keys.authenticate(key)).toBeNull();
    other.close();
    db.close();
  });

  it('reads the data version once per event-loop turn', async () => {
    const { db, keys, dir } = freshStore();
    const { key, record } = keys.create();
    const other = openDatabase(dir, migrations);
    expect(keys.authenticate(key)).toEqual(record.principal);
    // A commit in the middle of a turn: requests handled in this turn arrived before it.
    expect(new KeyStore(other).revoke(record.id)).toBe('revoked');
    expect(keys.authenticate(key)).toEqual(record.principal);
    await nextTurn();
    expect(keys.authenticate(key)).toBeNull();
    other.close();
    db.close();
  });

  it('accepts a key created by another connection after this store has answered', () => {
    const { db, keys, dir } = freshStore();
    expect(keys.authenticate('arb_unknown')).toBeNull();
    const other = openDatabase(dir, migrations);
    const { key, record } = new KeyStore(other).create();
    expect(keys.authenticate(key)).toEqual(record.principal);
    other.close();
    db.close();
  });

  it('gives keys the member role unless asked, and keeps one operator when told to', () => {
    const { db, keys } = freshStore();
    const member = keys.create('alice');
    const operator = keys.create('ops', 'operator');
    expect(member.record.role).toBe('member');
    expect(keys.authenticateKey(member.key)).toEqual({ principal: member.record.principal, role: 'member' });
    expect(keys.authenticateKey(operator.key)?.role).toBe('operator');
    expect(keys.list().map((record) => record.role)).toEqual(['member', 'operator']);
    expect(keys.listPrincipals().map((record) => [record.name, record.activeKeys])).toEqual([
      ['alice', 1],
      ['ops', 1],
    ]);
    expect(keys.revoke(operator.record.id, { keepAnOperator: true })).toBe('last-operator');
    expect(keys.authenticateKey(operator.key)?.role).toBe('operator');
    // Without the option (the CLI on the server's machine) the last operator key can go.
    expect(keys.revoke(operator.record.id)).toBe('revoked');
    expect(keys.authenticateKey(operator.key)).toBeNull();
    expect(keys.revoke(member.record.id, { keepAnOperator: true })).toBe('revoked');
    db.close();
  });
});
