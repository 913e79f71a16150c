import { type ApiKeyRecord, KEY_ROLES, type KeyRole, KeyStore } from '@arbiter/server';
import { invocationIo } from '../../invocation-io.js';
import type { DatabaseOptions } from '../server-database/database-options.js';
import { openServerDatabase } from '../server-database/open-server-database.js';
import { formatTextTable } from '../text-table.js';
import { EXIT_FAILURE, UsageError } from '../usage-error.js';

/** `--role` names the role; `--operator` is the older spelling of `--role operator`. */
function keyRoleOf(options: { operator?: boolean; role?: string }): KeyRole {
  if (options.role === undefined) return options.operator ? 'operator' : 'member';
  if (!(KEY_ROLES as readonly string[]).includes(options.role))
    throw new UsageError(
      `--role must be one of ${KEY_ROLES.join(', ')}, not ${JSON.stringify(options.role)}`,
    );
  if (options.operator && options.role !== 'operator')
    throw new UsageError(`--operator and --role ${options.role} contradict each other; give one`);
  return options.role as KeyRole;
}

/** `create` may make a data directory; `list` and `revoke` only read one (`openServerDatabase`). */
async function withKeyStore<T>(
  options: DatabaseOptions,
  use: (keys: KeyStore) => T | Promise<T>,
  mayCreate = false,
): Promise<T> {
  const db = await openServerDatabase(options, { mayCreate });
  try {
    const keys = await KeyStore.open(db);
    try {
      return await use(keys);
    } finally {
      await keys.close();
    }
  } finally {
    await db.close();
  }
}

export async function createKey(
  options: DatabaseOptions & { principal?: string; operator?: boolean; role?: string },
): Promise<number> {
  const role = keyRoleOf(options);
  const created = await withKeyStore(options, (store) => store.create(options.principal, role), true);
  invocationIo().writeStdout(`${created.key}\n`);
  invocationIo().writeStderr(
    `created ${role} key ${created.record.id} for principal ${created.record.principal.name}; the key is not shown again\n`,
  );
  return 0;
}

export async function listKeys(options: DatabaseOptions & { json?: boolean }): Promise<number> {
  const records: ApiKeyRecord[] = await withKeyStore(options, (store) => store.list());
  if (options.json) {
    invocationIo().writeStdout(`${JSON.stringify(records, null, 2)}\n`);
    return 0;
  }
  const rows = records.map((record) => [
    record.id,
    record.principal.name,
    record.role,
    `…${record.hint}`,
    record.createdAt.toISOString(),
    record.revokedAt ? `revoked ${record.revokedAt.toISOString()}` : 'active',
  ]);
  invocationIo().writeStdout(formatTextTable(['id', 'principal', 'role', 'key', 'created', 'status'], rows));
  return 0;
}

export async function revokeKey(id: string, options: DatabaseOptions): Promise<number> {
  const outcome = await withKeyStore(options, (store) => store.revoke(id));
  if (outcome === 'not-found') {
    invocationIo().writeStderr(`arbiter keys revoke: no key with id ${id}\n`);
    return EXIT_FAILURE;
  }
  invocationIo().writeStdout(outcome === 'revoked' ? `revoked ${id}\n` : `${id} was already revoked\n`);
  return 0;
}
