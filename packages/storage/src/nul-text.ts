import type { SqlValue } from './sql-database.js';

/**
 * A statement was given text holding U+0000 (NUL). PostgreSQL's `text` cannot store it (its
 * drivers fail the whole statement), while SQLite stores it; so that a server answers the same on
 * either backend, both refuse it before the statement runs, and the APIs answer `400`.
 */
export class NulInTextError extends Error {
  readonly code = 'ARBITER_NUL_IN_TEXT';

  constructor() {
    super('a text value contains a NUL character (U+0000), which is not stored');
    this.name = 'NulInTextError';
  }

  static isInstance(error: unknown): error is NulInTextError {
    return (error as { code?: unknown } | null)?.code === 'ARBITER_NUL_IN_TEXT';
  }
}

/** Throws `NulInTextError` when a text parameter holds NUL; bytes (`Buffer`) may hold anything. */
export function refuseNulText(params: readonly SqlValue[]): void {
  for (const value of params)
    if (typeof value === 'string' && value.includes('\0')) throw new NulInTextError();
}
