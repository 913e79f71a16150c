import type { AuthenticatedKey, KeyRole } from '@arbiter/auth';
import type { SqliteDatabase } from '@arbiter/storage';
import type { Statement } from 'better-sqlite3';
import { type ActiveKeys, KEYS_CHANNEL } from './active-keys.js';
import { hashApiKey } from './api-key.js';

/** Accepted keys remembered by one store; the map is cleared when full (no LRU bookkeeping). */
const ACCEPTED_KEY_CACHE_LIMIT = 1_000;

/**
 * The keys of a SQLite database, checked on its connection synchronously (better-sqlite3 is).
 *
 * `authenticateKey` runs on every request, so accepted keys are remembered in memory. Revocation
 * still takes effect at once: SQLite's `PRAGMA data_version` changes whenever another connection
 * commits (for example `arbiter keys revoke` while the server runs), and that empties the cache;
 * a store on this connection empties it by `changed` and by its notification (this connection's own
 * commits do not move `data_version`). The version is read once per event-loop turn, not per call:
 * a read is a statement with file locks, about 30 µs on the build machine, a tenth of a decision
 * request's CPU at load. A revocation therefore applies to every request authenticated in a later
 * turn; the requests of the turn in which it is committed, read from their sockets in the same
 * poll, are treated like requests already in flight. Unknown keys are never cached, so a flood of
 * wrong keys costs lookups, not memory; nor is a key read while a transaction is open on the
 * connection, which could still roll back what it read.
 */
export class SqliteActiveKeys implements ActiveKeys {
  readonly #db: SqliteDatabase;
  readonly #byHash: Statement<[string], { id: string; name: string; role: KeyRole }>;
  readonly #dataVersion: Statement<[], number>;
  readonly #accepted = new Map<string, AuthenticatedKey>();
  #acceptedAtVersion = -1;
  #versionReadThisTurn = false;
  #stopListening: (() => Promise<void>) | null = null;
  readonly #endTurn = (): void => {
    this.#versionReadThisTurn = false;
  };

  private constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#byHash = db.connection.prepare(
      `SELECT p.id, p.name, k.role FROM api_keys k JOIN principals p ON p.id = k.principal_id
       WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    );
    this.#dataVersion = db.connection.prepare<[], number>('PRAGMA data_version').pluck();
  }

  static async open(db: SqliteDatabase): Promise<SqliteActiveKeys> {
    const keys = new SqliteActiveKeys(db);
    // Another store on this connection: its commits do not move `data_version`, its notification does tell.
    keys.#stopListening = await db.listen(KEYS_CHANNEL, () => keys.#accepted.clear());
    return keys;
  }

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
    if (this.#db.connection.inTransaction) return accepted;
    if (this.#accepted.size >= ACCEPTED_KEY_CACHE_LIMIT) this.#accepted.clear();
    this.#accepted.set(token, accepted);
    return accepted;
  }

  async changed(): Promise<void> {
    this.#accepted.clear();
  }

  async close(): Promise<void> {
    await this.#stopListening?.();
  }
}
