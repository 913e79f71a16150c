import type { Migration, SqlDatabase } from '@arbiter/storage';
import {
  applyPostgresMigrations,
  isPostgresUrl,
  openDatabase,
  PostgresDatabase,
  redactConnectionString,
  SqliteDatabase,
} from '@arbiter/storage';
import { ServerConfigError } from '../config/server-config.js';

export interface StorageOptions {
  /** The data directory; its `arbiter.db` is the database unless `database` names PostgreSQL. */
  readonly dataDir: string;
  /** `postgres://…` (or `postgresql://…`): store everything in that PostgreSQL database instead. */
  readonly database?: string;
}

/**
 * Opens the server's database — SQLite in the data directory by default, PostgreSQL when a
 * connection string is given — and applies every migration not yet recorded. A failure to connect
 * names the database without its password; a value that is no PostgreSQL connection string is a
 * `ServerConfigError`, also without its password.
 */
export async function openStorage(
  options: StorageOptions,
  migrations: readonly Migration[],
): Promise<SqlDatabase> {
  // The server's event loop never waits on a checkpoint's fsync: a worker runs them.
  if (options.database === undefined)
    return new SqliteDatabase(openDatabase(options.dataDir, migrations), { checkpointInWorker: true });
  // A setting the operator wrote wrong, not a failure: `arbiter` reports it as bad usage (exit 2).
  if (!isPostgresUrl(options.database))
    throw new ServerConfigError(
      `the database must be a postgres:// or postgresql:// connection string, not ${JSON.stringify(redactConnectionString(options.database))}`,
    );
  const db = new PostgresDatabase(options.database);
  try {
    await applyPostgresMigrations(db, migrations);
  } catch (error) {
    await db.close().catch(() => undefined);
    // node-postgres messages name the host and user at most, never the password; the cause is kept
    // for the stack, the message for people.
    throw new Error(`cannot open the PostgreSQL database ${db.description}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return db;
}
