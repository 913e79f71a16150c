import { createRequire } from 'node:module';
import type pg from 'pg';

let loaded: typeof pg | undefined;

/**
 * node-postgres, loaded on first use. Every server imports the PostgreSQL storage classes, but most
 * run on SQLite; requiring `pg` only when a PostgreSQL database is opened keeps about 0.1 s of CPU off
 * each start. `pg` is CommonJS, so this is the same module instance an `import` would give.
 */
export function nodePostgres(): typeof pg {
  loaded ??= createRequire(import.meta.url)('pg') as typeof pg;
  return loaded;
}
