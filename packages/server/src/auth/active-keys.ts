import type { AuthenticatedKey } from '@arbiter/auth';

/** The channel on which a store announces that a key was created or revoked. */
export const KEYS_CHANNEL = 'arbiter_keys';

/**
 * What differs between the backends of the one `KeyStore`: how a request's bearer key is checked
 * synchronously, and how a creation or revocation made elsewhere reaches that check. SQLite's
 * (`sqlite-active-keys.ts`) looks keys up on its connection, remembering accepted ones until the
 * database changes; PostgreSQL's (`postgres-active-keys.ts`) holds every active key in memory,
 * reloaded on notification and every second.
 */
export interface ActiveKeys {
  /** The principal and role of a bearer token, or null when it is unknown or revoked. */
  authenticateKey(token: string): AuthenticatedKey | null;
  /** The store committed a creation or revocation: answer it from the next request on. */
  changed(): Promise<void>;
  /** Stops listening (and reloading). */
  close(): Promise<void>;
}
