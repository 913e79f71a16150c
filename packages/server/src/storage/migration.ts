import type { Database } from 'better-sqlite3';

/**
 * One versioned schema change. `id` sorts in the order migrations must run
 * (`0001-principals-and-keys`, `0100-uhp-core`, …) and is recorded once applied.
 */
export interface Migration {
  readonly id: string;
  up(db: Database): void;
}
