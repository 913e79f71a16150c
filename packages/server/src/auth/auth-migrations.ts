import type { Migration } from '@arbiter/storage';

/**
 * Principals and their API keys (stored as SHA-256 hashes, never in the clear).
 *
 * `0002-api-key-roles` gives every key a role. A database that already has keys must keep someone
 * able to administer it over the API, and the key `arbiter serve` created and printed on first start
 * is the oldest one: so the oldest unrevoked key becomes `operator` and every other key `member`
 * (docs/security.md, "Upgrading").
 */
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
  {
    id: '0002-api-key-roles',
    up(db) {
      db.exec(`
        ALTER TABLE api_keys ADD COLUMN role TEXT NOT NULL DEFAULT 'member'
          CHECK (role IN ('operator', 'member'));
        UPDATE api_keys SET role = 'operator' WHERE id = (
          SELECT id FROM api_keys WHERE revoked_at IS NULL ORDER BY created_at, rowid LIMIT 1
        );
      `);
    },
    postgres: `
      ALTER TABLE api_keys ADD COLUMN role TEXT NOT NULL DEFAULT 'member'
        CHECK (role IN ('operator', 'member'));
      UPDATE api_keys SET role = 'operator' WHERE id = (
        SELECT id FROM api_keys WHERE revoked_at IS NULL ORDER BY created_at, seq LIMIT 1
      );
    `,
  },
];
