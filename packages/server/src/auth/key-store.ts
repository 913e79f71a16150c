import type { AuthenticatedKey, KeyRole, Principal } from '@arbiter/auth';
import type { Database, Statement } from 'better-sqlite3';
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

/** Accepted keys remembered by one store; the map is cleared when full (no LRU bookkeeping). */
const ACCEPTED_KEY_CACHE_LIMIT = 1_000;

/**
 * Principals and API keys in the data directory's database.
 *
 * `authenticate` runs on every request, so accepted keys are remembered in memory. Revocation
 * still takes effect at once: SQLite's `PRAGMA data_version` changes whenever another connection
 * commits (for example `arbiter keys revoke` while the server runs), and that empties the cache;
 * this store's own writes empty it directly. The version is read once per event-loop turn, not per
 * call: a read is a statement with file locks, about 30 µs on the build machine, a tenth of a
 * decision request's CPU at load. A revocation therefore applies to every request authenticated
 * in a later turn; the requests of the turn in which it is committed, read from their sockets in
 * the same poll, are treated like requests already in flight. Unknown keys are never cached, so a
 * flood of wrong keys costs lookups, not memory.
 */
export class KeyStore {
  readonly #db: Database;
  readonly #byHash: Statement<[string], { id: string; name: string; role: KeyRole }>;
  readonly #dataVersion: Statement<[], number>;
  readonly #accepted = new Map<string, AuthenticatedKey>();
  #acceptedAtVersion = -1;
  #versionReadThisTurn = false;
  readonly #endTurn = (): void => {
    this.#versionReadThisTurn = false;
  };

  constructor(db: Database) {
    this.#db = db;
    this.#byHash = db.prepare(
      `SELECT p.id, p.name, k.role FROM api_keys k JOIN principals p ON p.id = k.principal_id
       WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    );
    this.#dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** The principal a bearer token belongs to, or null when it is unknown or revoked. */
  authenticate(token: string): Principal | null {
    return this.authenticateKey(token)?.principal ?? null;
  }

  /** The principal and role of a bearer token, or null when it is unknown or revoked. */
  authenticateKey(token: string): AuthenticatedKey | null {
    if (!this.#versionReadThisTurn) {
      this.#versionReadThisTurn = true;
      setImmediate(this.#endTurn);
      const version = this.#dataVersion.get();
      if (version !== this.#acceptedAtVersion) {
        this.#accepted.clear();
        this.#acceptedAtVersion = version ?? -1;
      }
    }
    const cached = this.#accepted.get(token);
    if (cached !== undefined) return cached;
    const row = this.#byHash.get(hashApiKey(token));
    if (row === undefined) return null;
    const accepted: AuthenticatedKey = { principal: { id: row.id, name: row.name }, role: row.role };
    if (this.#accepted.size >= ACCEPTED_KEY_CACHE_LIMIT) this.#accepted.clear();
    this.#accepted.set(token, accepted);
    return accepted;
  }

  /**
   * Creates a key for the principal named `principalName`, creating that principal when it does
   * not exist yet; without a name, for a new principal of its own. Keys are members unless asked.
   */
  create(principalName?: string, role: KeyRole = 'member'): CreatedApiKey {
    return this.#db.transaction(() => {
      const principal = principalName ? this.ensurePrincipal(principalName) : this.#insertPrincipal();
      const { created, insert } = newApiKey(principal, role);
      this.#db.prepare(KEY_SQL.insertKey).run(...insert);
      return created;
    })();
  }

  /** The principal with this name, created when missing. */
  ensurePrincipal(name: string): Principal {
    const existing = this.#db.prepare(KEY_SQL.principalByName).get(name) as Principal | undefined;
    return existing ?? this.#insertPrincipal(name);
  }

  list(): ApiKeyRecord[] {
    return (this.#db.prepare(KEY_SQL.listKeys('sqlite')).all() as KeyRow[]).map(keyRecordOf);
  }

  listPrincipals(): PrincipalRecord[] {
    return (this.#db.prepare(KEY_SQL.listPrincipals).all() as PrincipalRow[]).map(principalRecordOf);
  }

  /** Revokes a key by id: `revoked`, `already-revoked`, or `not-found`. */
  revoke(id: string): RevokeOutcome;
  revoke(id: string, options: RevokeOptions): RevokeOutcome | 'last-operator';
  revoke(id: string, options?: RevokeOptions): RevokeOutcome | 'last-operator' {
    // IMMEDIATE: the count of operator keys and the update are one step against other processes too.
    const outcome = this.#db
      .transaction(() => {
        const row = this.#db.prepare(KEY_SQL.keyState).get(id) as
          | { revoked_at: number | null; role: KeyRole }
          | undefined;
        if (!row) return 'not-found' as const;
        if (row.revoked_at !== null) return 'already-revoked' as const;
        if (options?.keepAnOperator && row.role === 'operator') {
          const { n } = this.#db.prepare(KEY_SQL.activeOperatorKeys).get() as { n: number };
          if (n <= 1) return 'last-operator' as const;
        }
        this.#db.prepare(KEY_SQL.revokeKey).run(Date.now(), id);
        return 'revoked' as const;
      })
      .immediate();
    // This connection's own commits do not move `data_version`.
    if (outcome === 'revoked') this.#accepted.clear();
    return outcome;
  }

  /** True when at least one key is not revoked. */
  hasActiveKeys(): boolean {
    return this.#db.prepare(KEY_SQL.anyActiveKey).get() !== undefined;
  }

  #insertPrincipal(name?: string): Principal {
    const id = newId('prn');
    this.#db.prepare(KEY_SQL.insertPrincipal).run(id, name ?? id, Date.now());
    return { id, name: name ?? id };
  }
}
