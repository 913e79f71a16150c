import type { SqlDatabase } from '@arbiter/storage';
import { applyMigrations, SqliteDatabase } from '@arbiter/storage';
import type { Database } from 'better-sqlite3';
import fastifyPlugin from 'fastify-plugin';
import { billingMigrations } from '../../billing/billing-migrations.js';
import { type BudgetPricing, PrepaidBudgets } from '../../billing/prepaid-budgets.js';
import { UhpDataLayout } from './data-layout.js';
import { uhpMigrations } from './uhp-migrations.js';
import { UhpStore } from './uhp-store.js';

export interface UhpStorageOptions {
  /**
   * A better-sqlite3 connection (the plugin applies its migrations, idempotent) or a `SqlDatabase`
   * from `openStorage` (SQLite or PostgreSQL, already migrated).
   */
  readonly db: Database | SqlDatabase;
  readonly dataDir: string;
  readonly pricing?: BudgetPricing | undefined;
}

/** Where UHP keeps things: the database (`uhpDatabase`, `uhpStore`, `uhpBudgets`) and the data directory (`uhpLayout`). */
export const uhpStoragePlugin = fastifyPlugin<UhpStorageOptions>(
  async (app, options) => {
    // A better-sqlite3 connection (tests, embedders) gets the UHP and billing tables here; a
    // `SqlDatabase` from `openStorage` already holds every migration.
    let db: SqlDatabase;
    if ('dialect' in options.db) db = options.db;
    else {
      applyMigrations(options.db, [...uhpMigrations, ...billingMigrations]);
      db = new SqliteDatabase(options.db);
    }
    app.decorate('uhpDatabase', db);
    app.decorate('uhpStore', new UhpStore(db));
    app.decorate('uhpLayout', new UhpDataLayout(options.dataDir));
    app.decorate('uhpBudgets', new PrepaidBudgets(db, options.pricing));
  },
  { name: 'arbiter-uhp-storage', fastify: '5.x' },
);
