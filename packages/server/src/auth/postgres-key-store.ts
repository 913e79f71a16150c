import type { AuthenticatedKey, KeyRole, Principal } from '@arbiter/auth';
import type { SqlDatabase } from '@arbiter/storage';
import { hashApiKey } from './api-key.js';
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

/** The channel on which a node announces that a key was created or revoked. */
export const KEYS_CHANNEL = 'arbiter_keys';

/** Every node reloads the active keys this often even without a notification. */
export const KEY_RELOAD_MS = 1000;

/**
 * Principals and API keys in PostgreSQL, shared by every node. Each node holds the active keys
 * (their SHA-256 hashes) in memory, so authenticating a request stays a synchronous lookup. A
 * creation or revocation is announced with `NOTIFY` in its own transaction, and every node reloads
 * on it; each node also reloads every second, so a revocation reaches every node within a second
 * even if its notification is lost.
 */
export class PostgresKeyStore {
  #active = new Map<string, AuthenticatedKey>();
  readonly #db: SqlDatabase;
  #stopListening: (() => Promise<void>) | null = null;
  #timer: NodeJS.Timeout | null = null;
  #reloading: Promise<void> | null = null;
  /** Told when a reload fails (the previous keys stay in force until one succeeds). */
  onReloadError: (error: unknown) => void = () => {};
  /** Told after each successful reload. */
  onReloaded: () => void = () => {};

  private constructor(db: SqlDatabase) {
    this.#db = db;
  }

  static async open(db: SqlDatabase, reloadMs = KEY_RELOAD_MS): Promise<PostgresKeyStore> {
    const store = new PostgresKeyStore(db);
    await store.reload();
    store.#stopListening = await db.listen(KEYS_CHANNEL, () => store.#reloadInBackground());
    store.#timer = setInterval(() => store.#reloadInBackground(), reloadMs);
    store.#timer.unref();
    return store;
  }

  /** The principal a bearer token belongs to, or null when it is unknown or revoked. */
  authenticate(token: string): Principal | null {
    return this.authenticateKey(token)?.principal ?? null;
  }

  /** The principal and role of a bearer token, or null when it is unknown or revoked. */
  authenticateKey(token: string): AuthenticatedKey | null {
    return this.#active.get(hashApiKey(token)) ?? null;
  }

  /** Reads the active keys again; concurrent calls share one read. */
  reload(): Promise<void> {
    this.#reloading ??= (async () => {
      try {
        const rows = await this.#db.all<{ key_hash: string; id: string; name: string; role: KeyRole }>(
          `SELECT k.key_hash, p.id, p.name, k.role FROM api_keys k JOIN principals p ON p.id = k.principal_id
           WHERE k.revoked_at IS NULL`,
        );
        this.#active = new Map(
          rows.map((row) => [row.key_hash, { principal: { id: row.id, name: row.name }, role: row.role }]),
        );
        this.onReloaded();
      } finally {
        this.#reloading = null;
      }
    })();
    return this.#reloading;
  }

  async create(principalName?: string, role: KeyRole = 'member'): Promise<CreatedApiKey> {
    const created = await this.#db.transaction(async (tx) => {
      const principal = await this.#principalIn(tx, principalName);
      const { created, insert } = newApiKey(principal, role);
      await tx.run(KEY_SQL.insertKey, insert);
      await tx.notify(KEYS_CHANNEL, 'created');
      return created;
    });
    await this.reload();
    return created;
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (await this.#db.all<KeyRow>(KEY_SQL.listKeys(this.#db.dialect))).map(keyRecordOf);
  }

  async listPrincipals(): Promise<PrincipalRecord[]> {
    return (await this.#db.all<PrincipalRow>(KEY_SQL.listPrincipals)).map(principalRecordOf);
  }

  /** Revokes a key by id (see `KeyStore.revoke`). */
  revoke(id: string): Promise<RevokeOutcome>;
  revoke(id: string, options: RevokeOptions): Promise<RevokeOutcome | 'last-operator'>;
  async revoke(id: string, options?: RevokeOptions): Promise<RevokeOutcome | 'last-operator'> {
    const outcome = await this.#db.transaction(async (tx) => {
      // Two nodes revoking the last two operator keys at once: one waits for the other's commit.
      if (options?.keepAnOperator) await tx.lock('arbiter-operator-keys');
      const row = await tx.get<{ revoked_at: number | null; role: KeyRole }>(
        `${KEY_SQL.keyState} FOR UPDATE`,
        [id],
      );
      if (!row) return 'not-found' as const;
      if (row.revoked_at !== null) return 'already-revoked' as const;
      if (options?.keepAnOperator && row.role === 'operator') {
        const count = await tx.get<{ n: number | string }>(KEY_SQL.activeOperatorKeys);
        if (Number(count?.n ?? 0) <= 1) return 'last-operator' as const;
      }
      await tx.run(KEY_SQL.revokeKey, [Date.now(), id]);
      await tx.notify(KEYS_CHANNEL, 'revoked');
      return 'revoked' as const;
    });
    if (outcome === 'revoked') await this.reload();
    return outcome;
  }

  async hasActiveKeys(): Promise<boolean> {
    return (await this.#db.get(KEY_SQL.anyActiveKey)) !== undefined;
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#stopListening?.();
  }

  #reloadInBackground(): void {
    this.reload().catch((error: unknown) => this.onReloadError(error));
  }

  /** The named principal (created when missing; two nodes creating it at once make one), or a new one. */
  async #principalIn(tx: SqlDatabase, name: string | undefined): Promise<Principal> {
    if (name === undefined) {
      const id = newId('prn');
      await tx.run(KEY_SQL.insertPrincipal, [id, id, Date.now()]);
      return { id, name: id };
    }
    await tx.run(`${KEY_SQL.insertPrincipal} ON CONFLICT (name) DO NOTHING`, [
      newId('prn'),
      name,
      Date.now(),
    ]);
    const row = await tx.get<Principal>(KEY_SQL.principalByName, [name]);
    if (!row) throw new Error(`the principal ${name} vanished as it was created`);
    return row;
  }
}
