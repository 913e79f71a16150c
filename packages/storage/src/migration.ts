import type { Database } from 'better-sqlite3';

/**
 * One versioned schema change, in both dialects. `id` sorts in the order migrations must run
 * (`0001-principals-and-keys`, `0100-uhp-core`, …) and is recorded once applied, in the database's
 * own `schema_migrations` table, whichever the dialect.
 */
export interface Migration {
  readonly id: string;
  /** The change on SQLite. */
  up(db: Database): void;
  /**
   * The same change on PostgreSQL, as one script. Absent only for a feature that cannot be stored
   * in PostgreSQL yet; opening a PostgreSQL database with such a migration fails and names it.
   */
  readonly postgres?: string;
}
