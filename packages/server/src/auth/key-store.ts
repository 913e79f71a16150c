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

/**
 * Principals and API keys in the data directory's database. `authenticate` reads the database on
 * every call (one indexed lookup), so a key revoked by another process, such as
 * `arbiter keys revoke` while the server runs, is refused from the next request on.
 */
export class KeyStore {
  readonly #db: Database;
  readonly #byHash: Statement<[string], { id: string; name: string }>;

  constructor(db: Database) {
    this.#db = db;
    this.#byHash = db.prepare(
      `SELECT p.id, p.name FROM api_keys k JOIN principals p ON p.id = k.principal_id
       WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    );
  }

  /** The principal a bearer token belongs to, or null when it is unknown or revoked. */
  authenticate(token: string): Principal | null {
    return this.#byHash.get(hashApiKey(token)) ?? null;
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
