import type { AuthenticatedKey, KeyRole } from '@arbiter/auth';
import type { SqlDatabase } from '@arbiter/storage';
import { type ActiveKeys, KEYS_CHANNEL } from './active-keys.js';
import { hashApiKey } from './api-key.js';

/** Every node reloads the active keys this often even without a notification. */
export const KEY_RELOAD_MS = 1000;

/** Whom a PostgreSQL node tells about its reloads. */
export interface ReloadListener {
  /** A reload failed (the previous keys stay in force until one succeeds). */
  onReloadError(error: unknown): void;
  /** A reload succeeded. */
  onReloaded(): void;
}

/**
 * The keys of a PostgreSQL database that every node shares. Each node holds the active keys (their
 * SHA-256 hashes) in memory, so authenticating a request stays a synchronous lookup. A creation or
 * revocation is announced with `NOTIFY` in its own transaction, and every node reloads on it; each
 * node also reloads every `reloadMs`, so a revocation reaches every node within a second even if
 * its notification is lost.
 */
export class PostgresActiveKeys implements ActiveKeys {
  #active = new Map<string, AuthenticatedKey>();
  readonly #db: SqlDatabase;
  readonly #listener: ReloadListener;
  #stopListening: (() => Promise<void>) | null = null;
  #timer: NodeJS.Timeout | null = null;
  #reloading: Promise<void> | null = null;

  private constructor(db: SqlDatabase, listener: ReloadListener) {
    this.#db = db;
    this.#listener = listener;
  }

  static async open(
    db: SqlDatabase,
    listener: ReloadListener,
    reloadMs = KEY_RELOAD_MS,
  ): Promise<PostgresActiveKeys> {
    const keys = new PostgresActiveKeys(db, listener);
    await keys.#reload();
    keys.#stopListening = await db.listen(KEYS_CHANNEL, () => keys.#reloadInBackground());
    keys.#timer = setInterval(() => keys.#reloadInBackground(), reloadMs);
    keys.#timer.unref();
    return keys;
  }

  authenticateKey(token: string): AuthenticatedKey | null {
    return this.#active.get(hashApiKey(token)) ?? null;
  }

  /**
   * This node answers its own change at once, without waiting for its notification. A reload
   * already under way may have read before the commit, so a fresh one follows it; that earlier
   * reload's failure is its own starter's to report.
   */
  async changed(): Promise<void> {
    await this.#reloading?.catch(() => undefined);
    await this.#reload();
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#stopListening?.();
  }

  /** Reads the active keys again; concurrent calls share one read. */
  #reload(): Promise<void> {
    this.#reloading ??= (async () => {
      try {
        const rows = await this.#db.all<{ key_hash: string; id: string; name: string; role: KeyRole }>(
          `SELECT k.key_hash, p.id, p.name, k.role FROM api_keys k JOIN principals p ON p.id = k.principal_id
           WHERE k.revoked_at IS NULL`,
        );
        this.#active = new Map(
          rows.map((row) => [row.key_hash, { principal: { id: row.id, name: row.name }, role: row.role }]),
        );
        this.#listener.onReloaded();
      } finally {
        this.#reloading = null;
      }
    })();
    return this.#reloading;
  }

  #reloadInBackground(): void {
    this.#reload().catch((error: unknown) => this.#listener.onReloadError(error));
  }
}
