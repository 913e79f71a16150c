import { randomBytes } from 'node:crypto';
import type { AuthenticatedKey, KeyRole, Principal } from '@arbiter/auth';
import type { Database, Statement } from 'better-sqlite3';
import { apiKeyHint, generateApiKey, hashApiKey } from './api-key.js';

/** An API key as listed: never the key itself, nor its hash. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly principal: Principal;
  readonly role: KeyRole;
  /** Last four characters of the key. */
  readonly hint: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

/** A principal as listed, with how many of its keys are not revoked. */
export interface PrincipalRecord extends Principal {
  readonly createdAt: Date;
  readonly activeKeys: number;
}

/** What revoking a key did. */
export type RevokeOutcome = 'revoked' | 'already-revoked' | 'not-found';

/**
 * Revoking with `keepAnOperator` refuses (`last-operator`) to revoke the last unrevoked operator key:
 * over the API that would leave nobody able to administer keys, and the only way back would be a
 * shell on the server's machine.
 */
export interface RevokeOptions {
  readonly keepAnOperator: true;
}

export interface CreatedApiKey {
  /** The key in the clear: shown once, never stored. */
  readonly key: string;
  readonly record: ApiKeyRecord;
}

export interface KeyRow {
  id: string;
  principal_id: string;
  principal_name: string;
  role: KeyRole;
  hint: string;
  created_at: number;
  revoked_at: number | null;
}

export interface PrincipalRow {
  id: string;
  name: string;
  created_at: number;
  active_keys: number;
}

/** The listing queries, one text for both dialects (the key's insertion order breaks ties). */
export const LIST_KEYS_SQL = (order: 'rowid' | 'seq') =>
  `SELECT k.id, k.principal_id, p.name AS principal_name, k.role, k.hint, k.created_at, k.revoked_at
   FROM api_keys k JOIN principals p ON p.id = k.principal_id ORDER BY k.created_at, k.${order}`;
export const LIST_PRINCIPALS_SQL = `SELECT p.id, p.name, p.created_at,
     (SELECT COUNT(*) FROM api_keys k WHERE k.principal_id = p.id AND k.revoked_at IS NULL) AS active_keys
   FROM principals p ORDER BY p.created_at, p.name`;
export const ACTIVE_OPERATOR_KEYS_SQL =
  "SELECT COUNT(*) AS n FROM api_keys WHERE role = 'operator' AND revoked_at IS NULL";

export function keyRecordOf(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    principal: { id: row.principal_id, name: row.principal_name },
    role: row.role,
    hint: row.hint,
    createdAt: new Date(Number(row.created_at)),
    revokedAt: row.revoked_at === null ? null : new Date(Number(row.revoked_at)),
  };
}

export function principalRecordOf(row: PrincipalRow): PrincipalRecord {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(Number(row.created_at)),
    activeKeys: Number(row.active_keys),
  };
}

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

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
      const key = generateApiKey();
      const id = newId('key');
      const createdAt = Date.now();
      this.#db
        .prepare(
          'INSERT INTO api_keys (id, principal_id, key_hash, hint, created_at, role) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(id, principal.id, hashApiKey(key), apiKeyHint(key), createdAt, role);
      return {
        key,
        record: {
          id,
          principal,
          role,
          hint: apiKeyHint(key),
          createdAt: new Date(createdAt),
          revokedAt: null,
        },
      };
    })();
  }

  /** The principal with this name, created when missing. */
  ensurePrincipal(name: string): Principal {
    const existing = this.#db.prepare('SELECT id, name FROM principals WHERE name = ?').get(name) as
      | Principal
      | undefined;
    return existing ?? this.#insertPrincipal(name);
  }

  list(): ApiKeyRecord[] {
    return (this.#db.prepare(LIST_KEYS_SQL('rowid')).all() as KeyRow[]).map(keyRecordOf);
  }

  listPrincipals(): PrincipalRecord[] {
    return (this.#db.prepare(LIST_PRINCIPALS_SQL).all() as PrincipalRow[]).map(principalRecordOf);
  }

  /** Revokes a key by id: `revoked`, `already-revoked`, or `not-found`. */
  revoke(id: string): RevokeOutcome;
  revoke(id: string, options: RevokeOptions): RevokeOutcome | 'last-operator';
  revoke(id: string, options?: RevokeOptions): RevokeOutcome | 'last-operator' {
    // IMMEDIATE: the count of operator keys and the update are one step against other processes too.
    const outcome = this.#db
      .transaction(() => {
        const row = this.#db.prepare('SELECT revoked_at, role FROM api_keys WHERE id = ?').get(id) as
          | { revoked_at: number | null; role: KeyRole }
          | undefined;
        if (!row) return 'not-found' as const;
        if (row.revoked_at !== null) return 'already-revoked' as const;
        if (options?.keepAnOperator && row.role === 'operator') {
          const { n } = this.#db.prepare(ACTIVE_OPERATOR_KEYS_SQL).get() as { n: number };
          if (n <= 1) return 'last-operator' as const;
        }
        this.#db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(Date.now(), id);
        return 'revoked' as const;
      })
      .immediate();
    // This connection's own commits do not move `data_version`.
    if (outcome === 'revoked') this.#accepted.clear();
    return outcome;
  }

  /** True when at least one key is not revoked. */
  hasActiveKeys(): boolean {
    return this.#db.prepare('SELECT 1 FROM api_keys WHERE revoked_at IS NULL LIMIT 1').get() !== undefined;
  }

  #insertPrincipal(name?: string): Principal {
    const id = newId('prn');
    this.#db
      .prepare('INSERT INTO principals (id, name, created_at) VALUES (?, ?, ?)')
      .run(id, name ?? id, Date.now());
    return { id, name: name ?? id };
  }
}
