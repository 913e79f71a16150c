import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, PostgresDatabase, type SqlDatabase, SqliteDatabase } from '@arbiter/storage';
import { type RunningServer, type StartServerOptions, startServer } from '../../src/server.js';
import { migrations } from '../../src/storage/migrations.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../fixtures/throwaway-postgres.js';

export type Backend = 'sqlite' | 'postgres';
export const BACKENDS: readonly Backend[] = ['sqlite', 'postgres'];

export interface ServedOnBackend {
  readonly server: RunningServer;
  /** A second connection to the server's database, as another node or `arbiter billing` would open. */
  database(): SqlDatabase;
}

/**
 * Real `arbiter serve`s (`startServer` on port 0) on either storage backend, for a test file: one
 * throwaway PostgreSQL cluster for the file (`start` in `beforeAll`), a fresh data directory and
 * database per server, and everything closed and removed by `stop` (in `afterAll`).
 */
export function serversOnBackends(prefix: string) {
  let cluster: ThrowawayPostgres | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  return {
    async start(): Promise<void> {
      cluster = await startThrowawayPostgres();
    },
    async stop(): Promise<void> {
      // Every cleanup runs even when an earlier one fails; the failures are reported, not dropped.
      const failures: unknown[] = [];
      for (const cleanup of cleanups.splice(0).reverse())
        await cleanup().catch((error) => failures.push(error));
      await cluster?.stop();
      if (failures.length > 0) throw new AggregateError(failures, 'serversOnBackends: cleanup failed');
    },
    /** Runs `cleanup` at `stop`, before the cluster stops (last deferred, first run). */
    defer(cleanup: () => Promise<void>): void {
      cleanups.push(cleanup);
    },
    /** A new database on the file's cluster (`start` must have run). */
    createDatabase(): Promise<string> {
      if (!cluster) throw new Error('serversOnBackends: start() has not run');
      return cluster.createDatabase();
    },
    async serve(
      backend: Backend,
      options: Omit<StartServerOptions, 'port' | 'dataDir' | 'database'> = {},
    ): Promise<ServedOnBackend> {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
      // Registered first so it runs last, after the server closed, and even if the server never started.
      cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      const database = backend === 'postgres' ? await this.createDatabase() : undefined;
      const server = await startServer({ port: 0, dataDir, ...(database ? { database } : {}), ...options });
      const opened: SqlDatabase[] = [];
      cleanups.push(async () => {
        for (const db of opened) await db.close();
        await server.close();
      });
      return {
        server,
        database() {
          const db = database
            ? new PostgresDatabase(database)
            : new SqliteDatabase(openDatabase(dataDir, migrations));
          opened.push(db);
          return db;
        },
      };
    },
  };
}
