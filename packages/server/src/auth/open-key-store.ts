import type { SqlDatabase } from '@arbiter/storage';
import { SqliteDatabase } from '@arbiter/storage';
import { KeyStore } from './key-store.js';
import { PostgresKeyStore } from './postgres-key-store.js';

/** The key store of either backend; both answer `create`, `list`, `revoke` (the SQLite one synchronously). */
export type AnyKeyStore = KeyStore | PostgresKeyStore;

/**
 * The API keys of an opened database: SQLite's synchronous store over its connection, or
 * PostgreSQL's, which every node shares and keeps in memory (close it: it listens and reloads).
 */
export async function openKeyStore(db: SqlDatabase): Promise<AnyKeyStore> {
  return db instanceof SqliteDatabase ? new KeyStore(db.connection) : PostgresKeyStore.open(db);
}

/** Stops what the store holds open (PostgreSQL's listener and reload timer; nothing for SQLite). */
export async function closeKeyStore(store: AnyKeyStore): Promise<void> {
  if (store instanceof PostgresKeyStore) await store.close();
}
