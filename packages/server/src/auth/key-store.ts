import type { AuthenticatedKey, KeyRole, Principal } from '@arbiter/auth';
import { type SqlDatabase, SqliteDatabase } from '@arbiter/storage';
import { type ActiveKeys, KEYS_CHANNEL } from './active-keys.js';
import {
  type ApiKeyRecord,
  type CreatedApiKey,
  KEY_SQL,
  type KeyRow,
  keyRecordOf,
  newApiKey,
  newId,
  type PrincipalRecord,
  type PrincipalRow,
  principalRecordOf,
  type RevokeOptions,
  type RevokeOutcome,
} from './key-records.js';
import { PostgresActiveKeys } from './postgres-active-keys.js';
import { SqliteActiveKeys } from './sqlite-active-keys.js';

export interface KeyStoreOptions {
  /** PostgreSQL: how often each node reloads the active keys without a notification (default 1 s). */
  readonly reloadMs?: number;
}

/**
 * Principals and API keys, in SQLite or PostgreSQL: one store over the storage interface. Every
 * read and write is stated once here, its SQL in `key-records.ts`. What differs by backend is how
 * a request is authenticated synchronously and how a change made by another process reaches it
 * (`ActiveKeys`: SQLite looks keys up on its connection, PostgreSQL holds them in memory and
 * reloads on notification). Close the store when done: it listens on its database.
 */
export class KeyStore {
  readonly #db: SqlDatabase;
  readonly #active: ActiveKeys;
  /** PostgreSQL: told when a reload fails (the previous keys stay in force until one succeeds). */
  onReloadError: (error: unknown) => void = () => {};
  /** PostgreSQL: told after each successful reload. */
  onReloaded: () => void = () => {};

  private constructor(db: SqlDatabase, active: ActiveKeys) {
    this.#db = db;
    this.#active = active;
  }

  /** The keys of an opened database (SQLite's, or PostgreSQL's, which every node shares). */
  static async open(db: SqlDatabase, options: KeyStoreOptions = {}): Promise<KeyStore> {
    // The first reload runs before the store exists: nobody can have asked to be told yet.
    let store: KeyStore | undefined;
    const active =
      db instanceof SqliteDatabase
        ? await SqliteActiveKeys.open(db)
        : await PostgresActiveKeys.open(
            db,
            {
              onReloadError: (error) => store?.onReloadError(error),
              onReloaded: () => store?.onReloaded(),
            },
            options.reloadMs,
          );
    store = new KeyStore(db, active);
    return store;
  }

  /** The principal a bearer token belongs to, or null when it is unknown or revoked. */
  authenticate(token: string): Principal | null {
    return this.#active.authenticateKey(token)?.principal ?? null;
  }

  /** The principal and role of a bearer token, or null when it is unknown or revoked. */
  authenticateKey(token: string): AuthenticatedKey | null {
    return this.#active.authenticateKey(token);
  }

  /**
   * Creates a key for the principal named `principalName`, creating that principal when it does
   * not exist yet; without a name, for a new principal of its own. Keys are members unless asked.
   */
  async create(principalName?: string, role: KeyRole = 'member'): Promise<CreatedApiKey> {
    const created = await this.#db.transaction(async (tx) => {
      const principal = await principalIn(tx, principalName);
      const { created, insert } = newApiKey(principal, role);
      await tx.run(KEY_SQL.insertKey, insert);
      await tx.notify(KEYS_CHANNEL, 'created');
      return created;
    });
    await this.#active.changed();
    return created;
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (await this.#db.all<KeyRow>(KEY_SQL.listKeys(this.#db.dialect))).map(keyRecordOf);
  }

  async listPrincipals(): Promise<PrincipalRecord[]> {
    return (await this.#db.all<PrincipalRow>(KEY_SQL.listPrincipals)).map(principalRecordOf);
  }

  /** Revokes a key by id: `revoked`, `already-revoked`, or `not-found`. */
  revoke(id: string): Promise<RevokeOutcome>;
  revoke(id: string, options: RevokeOptions): Promise<RevokeOutcome | 'last-operator'>;
  async revoke(id: string, options?: RevokeOptions): Promise<RevokeOutcome | 'last-operator'> {
    // The count of operator keys and the update are one step against other processes too: SQLite's
    // transaction holds the write lock from its start; in PostgreSQL two nodes revoking the last two
    // operator keys at once take the same lock, and one waits for the other's commit.
    const outcome = await this.#db.transaction(async (tx) => {
      if (options?.keepAnOperator) await tx.lock('arbiter-operator-keys');
      const row = await tx.get<{ revoked_at: number | null; role: KeyRole }>(KEY_SQL.keyState(tx.dialect), [
        id,
      ]);
      if (!row) return 'not-found' as const;
      if (row.revoked_at !== null) return 'already-revoked' as const;
      if (options?.keepAnOperator && row.role === 'operator') {
        const count = await tx.get<{ n: number }>(KEY_SQL.activeOperatorKeys);
        if (Number(count?.n ?? 0) <= 1) return 'last-operator' as const;
      }
      await tx.run(KEY_SQL.revokeKey, [Date.now(), id]);
      await tx.notify(KEYS_CHANNEL, 'revoked');
      return 'revoked' as const;
    });
    if (outcome === 'revoked') await this.#active.changed();
    return outcome;
  }

  /** True when at least one key is not revoked. */
  async hasActiveKeys(): Promise<boolean> {
    return (await this.#db.get(KEY_SQL.anyActiveKey)) !== undefined;
  }

  /** Stops listening for other processes' changes (and, on PostgreSQL, reloading). */
  close(): Promise<void> {
    return this.#active.close();
  }
}

/** The named principal (created when missing; two processes creating it at once make one), or a new one. */
async function principalIn(tx: SqlDatabase, name: string | undefined): Promise<Principal> {
  if (name === undefined) {
    const id = newId('prn');
    await tx.run(KEY_SQL.insertPrincipal, [id, id, Date.now()]);
    return { id, name: id };
  }
  await tx.run(`${KEY_SQL.insertPrincipal} ON CONFLICT (name) DO NOTHING`, [newId('prn'), name, Date.now()]);
  const row = await tx.get<Principal>(KEY_SQL.principalByName, [name]);
  if (!row) throw new Error(`the principal ${name} vanished as it was created`);
  return row;
}
