import type { Migration } from './migration.js';
import type { PostgresDatabase } from './postgres-database.js';

/**
 * Applies every migration not yet recorded in the PostgreSQL database, each with its record in one
 * transaction. Several nodes may start at once: the advisory lock makes one apply them while the
 * others wait, then find them recorded.
 */
export async function applyPostgresMigrations(
  db: PostgresDatabase,
  migrations: readonly Migration[],
): Promise<void> {
  const missing = migrations.filter((migration) => migration.postgres === undefined);
  if (missing.length > 0)
    throw new Error(
      `these migrations have no PostgreSQL form, so this feature cannot use PostgreSQL yet: ${missing
        .map((migration) => migration.id)
        .join(', ')}`,
    );
  const client = await db.pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtextextended('arbiter-migrations', 0))");
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)',
      );
      const applied = new Set(
        (await client.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((row) => row.id),
      );
      for (const migration of [...migrations].sort((a, b) => a.id.localeCompare(b.id))) {
        if (applied.has(migration.id)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.postgres as string);
          await client.query('INSERT INTO schema_migrations (id, applied_at) VALUES ($1, $2)', [
            migration.id,
            Date.now(),
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`the PostgreSQL migration ${migration.id} failed: ${(error as Error).message}`, {
            cause: error,
          });
        }
      }
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtextextended('arbiter-migrations', 0))");
    }
  } finally {
    client.release();
  }
}
