import { billingMigrations, uhpMigrations } from '@arbiter/harness-server';
import type { Migration } from '@arbiter/storage';
import { authMigrations } from '../auth/auth-migrations.js';
import { teamGateMigrations } from '../gate/team-gate-migrations.js';

/**
 * Every migration of the server, from every feature. Features own their migrations
 * (next to their storage code) and are listed here so one database holds them all.
 */
export const migrations: readonly Migration[] = [
  ...authMigrations,
  ...uhpMigrations,
  ...billingMigrations,
  ...teamGateMigrations,
];
