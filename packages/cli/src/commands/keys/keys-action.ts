import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type ApiKeyRecord, KeyStore, migrations, openDatabase, resolveDataDir } from '@arbiter/server';
import { formatTextTable } from '../text-table.js';
import { EXIT_FAILURE, UsageError } from '../usage-error.js';

/** The database file of a data directory (@arbiter/server's DATABASE_FILE_NAME). */
const DATABASE_FILE = 'arbiter.db';

export interface DataDirOption {
  dataDir?: string;
}

/**
 * `create` may make a data directory; `list` and `revoke` only read one, so a misspelt path is an
 * error instead of a new, empty database that answers "no keys".
 */
function withKeyStore<T>(options: DataDirOption, use: (keys: KeyStore) => T, create = false): T {
  const dataDir = resolveDataDir(options.dataDir);
  const found = existsSync(dataDir) ? statSync(dataDir) : null;
  if (found !== null && !found.isDirectory()) {
    throw new UsageError(`the data directory ${dataDir} is not a directory`);
  }
  if (!create && (found === null || !existsSync(join(dataDir, DATABASE_FILE)))) {
    throw new UsageError(
      `there is no Arbiter data directory at ${dataDir} (no ${DATABASE_FILE}); \`arbiter keys create\` or \`arbiter serve\` makes one`,
    );
  }
  const db = openDatabase(dataDir, migrations);
  try {
    return use(new KeyStore(db));
  } finally {
    db.close();
  }
}

export function createKey(options: DataDirOption & { principal?: string; operator?: boolean }): number {
  const role = options.operator ? 'operator' : 'member';
  const created = withKeyStore(options, (store) => store.create(options.principal, role), true);
  process.stdout.write(`${created.key}\n`);
  process.stderr.write(
    `created ${role} key ${created.record.id} for principal ${created.record.principal.name}; the key is not shown again\n`,
  );
  return 0;
}

export function listKeys(options: DataDirOption & { json?: boolean }): number {
  const records: ApiKeyRecord[] = withKeyStore(options, (store) => store.list());
  if (options.json) {
    process.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
    return 0;
  }
  const rows = records.map((record) => [
    record.id,
    record.principal.name,
    `…${record.hint}`,
    record.createdAt.toISOString(),
    record.revokedAt ? `revoked ${record.revokedAt.toISOString()}` : 'active',
  ]);
  process.stdout.write(formatTextTable(['id', 'principal', 'key', 'created', 'status'], rows));
  return 0;
}

export function revokeKey(id: string, options: DataDirOption): number {
  const outcome = withKeyStore(options, (store) => store.revoke(id));
  if (outcome === 'not-found') {
    process.stderr.write(`arbiter keys revoke: no key with id ${id}\n`);
    return EXIT_FAILURE;
  }
  process.stdout.write(outcome === 'revoked' ? `revoked ${id}\n` : `${id} was already revoked\n`);
  return 0;
}
