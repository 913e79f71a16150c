import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  loadServerConfig,
  migrations,
  openStorage,
  resolveDatabaseSetting,
  resolveDataDir,
  ServerConfigError,
} from '@arbiter/server';
import { DATABASE_FILE_NAME, type SqlDatabase } from '@arbiter/storage';
import { UsageError } from '../usage-error.js';
import type { DatabaseOptions } from './database-options.js';

/**
 * Opens the database `arbiter serve` with the same options (and environment) would serve from:
 * the data directory's SQLite file, or the PostgreSQL database named by `--database`, the
 * configuration file's `database` or `$ARBITER_DATABASE_URL`, in that order
 * (`resolveDatabaseSetting`, the server's own rule). Migrations are applied as `serve` applies
 * them. Every message names a PostgreSQL database without its password.
 *
 * `mayCreate: false` (reading commands) refuses a data directory without a database instead of
 * creating an empty one that answers "nothing": a misspelt path is then an error. PostgreSQL needs
 * no such guard, since connecting to a database that does not exist fails.
 */
export async function openServerDatabase(
  options: DatabaseOptions,
  { mayCreate }: { mayCreate: boolean },
): Promise<SqlDatabase> {
  try {
    const configured = options.config === undefined ? undefined : loadServerConfig(options.config).database;
    const database = resolveDatabaseSetting({ database: options.database, configured });
    const dataDir = resolveDataDir(options.dataDir);
    if (database === undefined) requireSqliteDataDir(dataDir, mayCreate);
    return await openStorage({ dataDir, ...(database === undefined ? {} : { database }) }, migrations);
  } catch (error) {
    if (ServerConfigError.isInstance(error)) throw new UsageError(error.message);
    throw error;
  }
}

function requireSqliteDataDir(dataDir: string, mayCreate: boolean): void {
  const found = existsSync(dataDir) ? statSync(dataDir) : null;
  if (found !== null && !found.isDirectory()) {
    throw new UsageError(`the data directory ${dataDir} is not a directory`);
  }
  if (!mayCreate && (found === null || !existsSync(join(dataDir, DATABASE_FILE_NAME)))) {
    throw new UsageError(
      `there is no Arbiter data directory at ${dataDir} (no ${DATABASE_FILE_NAME}); \`arbiter keys create\` or \`arbiter serve\` makes one`,
    );
  }
}
