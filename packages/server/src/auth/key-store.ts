import { randomBytes } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import { apiKeyHint, generateApiKey, hashApiKey } from './api-key.js';
import type { Principal } from './principal.js';

/** An API key as listed: never the key itself. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly principal: Principal;
  /** Last four characters of the key. */
  readonly hint: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

export interface CreatedApiKey {
  /** The key in the clear: shown once, never stored. */
  readonly key: string;
  readonly record: ApiKeyRecord;
}

interface KeyRow {
  id: string;
  principal_id: string;
  principal_name: string;
  hint: string;
  created_at: number;
  revoked_at: number | null;
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
  readonly #byHash: Statement<[string], { id: string; name: string }>;
  readonly #dataVersion: Statement<[], number>;
  readonly #accepted = new Map<string, Principal>();
  #acceptedAtVersion = -1;
  #versionReadThisTurn = false;
  readonly #endTurn = (): void => {
    this.#versionReadThisTurn = false;
  };

  constructor(db: Database) {
    this.#db = db;
    this.#byHash = db.prepare(
      `SELECT p.id, p.name FROM api_keys k JOIN principals p ON p.id = k.principal_id
       WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    );
    this.#dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** The principal a bearer token belongs to, or null when it is unknown or revoked. */
  authenticate(token: string): Principal | null {
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
    const principal: Principal = { id: row.id, name: row.name };
    if (this.#accepted.size >= ACCEPTED_KEY_CACHE_LIMIT) this.#accepted.clear();
    this.#accepted.set(token, principal);
    return principal;
  }

  /**
   * Creates a key for the principal named `principalName`, creating that principal when it does
   * not exist yet; without a name, for a new principal of its own.
   */
  create(principalName?: string): CreatedApiKey {
    return this.#db.transaction(() => {
      const principal = principalName ? this.ensurePrincipal(principalName) : this.#insertPrincipal();
      const key = generateApiKey();
      const id = newId('key');
      const createdAt = Date.now();
      this.#db
        .prepare('INSERT INTO api_keys (id, principal_id, key_hash, hint, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(id, principal.id, hashApiKey(key), apiKeyHint(key), createdAt);
      return {
        key,
        record: { id, principal, hint: apiKeyHint(key), createdAt: new Date(createdAt), revokedAt: null },
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
    const rows = this.#db
      .prepare(
        `SELECT k.id, k.principal_id, p.name AS principal_name, k.hint, k.created_at, k.revoked_at
         FROM api_keys k JOIN principals p ON p.id = k.principal_id ORDER BY k.created_at, k.rowid`,
      )
      .all() as KeyRow[];
    return rows.map((row) => ({
      id: row.id,
      principal: { id: row.principal_id, name: row.principal_name },
      hint: row.hint,
      createdAt: new Date(row.created_at),
      revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
    }));
  }

  /** Revokes a key by id: `revoked`, `already-revoked`, or `not-found`. */
  revoke(id: string): 'revoked' | 'already-revoked' | 'not-found' {
    const row = this.#db.prepare('SELECT revoked_at FROM api_keys WHERE id = ?').get(id) as
      | { revoked_at: number | null }
      | undefined;
    if (!row) return 'not-found';
    if (row.revoked_at !== null) return 'already-revoked';
    this.#db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(Date.now(), id);
    // This connection's own commits do not move `data_version`.
    this.#accepted.clear();
    return 'revoked';
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
