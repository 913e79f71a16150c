import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { openDatabase } from './database.js';
import { SqliteDatabase } from './sqlite-database.js';
import { WalCheckpointer } from './wal-checkpointer.js';

const open: SqliteDatabase[] = [];
afterEach(async () => {
  for (const db of open.splice(0)) await db.close();
});

function fileDatabase(options: { checkpointInWorker?: boolean } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-wal-'));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  const connection = openDatabase(dir, []);
  const db = new SqliteDatabase(connection, options);
  open.push(db);
  return { db, connection, file: path.join(dir, 'arbiter.db') };
}

/** About 8 MB of rows: past the 1,000 pages at which a connection would checkpoint itself. */
async function writeMuch(db: SqliteDatabase): Promise<void> {
  await db.run('CREATE TABLE t (n INTEGER, text TEXT)');
  for (let batch = 0; batch < 20; batch++)
    await db.transaction(async (tx) => {
      for (let n = 0; n < 100; n++) await tx.run('INSERT INTO t VALUES (?, ?)', [n, 'x'.repeat(4000)]);
    });
}

describe('WalCheckpointer', () => {
  it('checkpoints in a worker: the connection itself never does, and the database file fills', async () => {
    const { db, connection, file } = fileDatabase({ checkpointInWorker: true });
    expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await writeMuch(db);
    // Every row is in the log: the connection's commits copied none of it into the file.
    const before = fs.statSync(file).size;
    expect(before).toBeLessThan(1024 * 1024);
    await vi.waitFor(() => expect(fs.statSync(file).size).toBeGreaterThan(8_000_000), {
      timeout: 10_000,
      interval: 100,
    });
    expect(await db.get('SELECT count(*) AS n FROM t')).toEqual({ n: 2000 });
  });

  it("stops with the database: the worker's last checkpoint and the close fold the log in and remove it", async () => {
    const { db, connection, file } = fileDatabase({ checkpointInWorker: true });
    await writeMuch(db);
    open.splice(open.indexOf(db), 1);
    await db.close();
    expect(connection.open).toBe(false);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect(fs.statSync(file).size).toBeGreaterThan(8_000_000);
  });

  it('is not started without being asked, nor for a database in memory', async () => {
    const { connection } = fileDatabase();
    expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    const memory = new Database(':memory:');
    expect(WalCheckpointer.start(memory)).toBeNull();
    memory.close();
  });
});
