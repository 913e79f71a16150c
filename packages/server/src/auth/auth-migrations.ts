import type { Migration } from '../storage/migration.js';

/** Principals and their API keys (stored as SHA-256 hashes, never in the clear). */
export const authMigrations: readonly Migration[] = [
  {
    id: '0001-principals-and-keys',
    up(db) {
      db.exec(`
        CREATE TABLE principals (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          created_at INTEGER NOT NULL
        );
        CREATE TABLE api_keys (
          id TEXT PRIMARY KEY,
          principal_id TEXT NOT NULL REFERENCES principals (id),
          key_hash TEXT NOT NULL UNIQUE,
          hint TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          revoked_at INTEGER
        );
        CREATE INDEX api_keys_principal ON api_keys (principal_id);
      `);
    },
    postgres: `
      CREATE TABLE principals (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_at BIGINT NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        seq BIGSERIAL NOT NULL,
        principal_id TEXT NOT NULL REFERENCES principals (id),
        key_hash TEXT NOT NULL UNIQUE,
        hint TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        revoked_at BIGINT
      );
      CREATE INDEX api_keys_principal ON api_keys (principal_id);
    `,
  },
];
