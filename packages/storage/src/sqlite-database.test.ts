import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NulInTextError } from './nul-text.js';
import { SqliteDatabase } from './sqlite-database.js';

let db: SqliteDatabase | undefined;
afterEach(async () => {
  await db?.close();
});

describe('SqliteDatabase statement cache', () => {
  it('prepares each SQL text once, for plain calls and inside transactions alike', async () => {
    const connection = new Database(':memory:');
    db = new SqliteDatabase(connection);
    const prepare = vi.spyOn(connection, 'prepare');
    await db.run('CREATE TABLE t (n INTEGER)');
    for (let n = 0; n < 5; n++) await db.run('INSERT INTO t (n) VALUES (?)', [n]);
    await db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (n) VALUES (?)', [5]);
    });
    expect(await db.get<{ total: number }>('SELECT count(*) AS total FROM t')).toEqual({ total: 6 });
    const insertions = prepare.mock.calls.filter(([sql]) => sql.startsWith('INSERT'));
    expect(insertions).toHaveLength(1);
    // BEGIN IMMEDIATE and COMMIT are cached too: a second transaction prepares nothing new.
    const before = prepare.mock.calls.length;
    await db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (n) VALUES (?)', [6]);
    });
    expect(prepare.mock.calls.length).toBe(before);
  });
});

describe('SqliteDatabase and text holding NUL', () => {
  it('refuses it in any statement, as PostgreSQL must, and stores bytes holding 0x00', async () => {
    db = new SqliteDatabase(new Database(':memory:'));
    await db.run('CREATE TABLE t (s TEXT, b BLOB)');
    await expect(db.run('INSERT INTO t (s) VALUES (?)', ['a\0b'])).rejects.toThrow(NulInTextError);
    await expect(db.get('SELECT * FROM t WHERE s = ?', ['a\0b'])).rejects.toThrow(NulInTextError);
    await expect(db.transaction((tx) => tx.all('SELECT * FROM t WHERE s = ?', ['\0']))).rejects.toThrow(
      /NUL character/,
    );
    await db.run('INSERT INTO t (s, b) VALUES (?, ?)', ['ok', Buffer.from([0, 1])]);
    expect(await db.get('SELECT s, b FROM t')).toEqual({ s: 'ok', b: Buffer.from([0, 1]) });
  });
});
