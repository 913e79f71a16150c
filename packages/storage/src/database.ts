import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import type { Migration } from './migration.js';

export const DATABASE_FILE_NAME = 'arbiter.db';

/**
 * Opens (creating when needed) the SQLite database of a data directory in WAL mode and
 * applies every migration not yet recorded, each in its own transaction.
 */
export function openDatabase(dataDir: string, migrations: readonly Migration[]): Database {
  // mkdir would report EEXIST, which tells a person nothing about what is wrong.
  if (fs.existsSync(dataDir) && !fs.statSync(dataDir).isDirectory()) {
    throw new Error(`the data directory ${dataDir} is not a directory`);
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new BetterSqlite3(path.join(dataDir, DATABASE_FILE_NAME));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  applyMigrations(db, migrations);
  return db;
}

export function applyMigrations(db: Database, migrations: readonly Migration[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
  const applied = new Set(
    db
      .prepare('SELECT id FROM schema_migrations')
      .all()
      .map((row) => (row as { id: string }).id),
  );
  const ordered = [...migrations].sort((a, b) => a.id.localeCompare(b.id));
  const record = db.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)');
  for (const migration of ordered) {
    if (applied.has(migration.id)) continue;
    db.transaction(() => {
      migration.up(db);
      record.run(migration.id, Date.now());
    })();
  }
}
