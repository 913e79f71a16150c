import { type Migration, schemaMigration } from '@arbiter/storage';

/**
 * Principals and their API keys (stored as SHA-256 hashes, never in the clear).
 *
 * `0002-api-key-roles` gives every key a role. A database that already has keys must keep someone
 * able to administer it over the API, and the key `arbiter serve` created and printed on first start
 * is the oldest one: so the oldest unrevoked key becomes `operator` and every other key `member`
 * (docs/security.md, "Upgrading").
 *
 * `0003-api-key-reporter-role` admits the `reporter` role (issue 32: a gate hook's key). SQLite
 * cannot change a CHECK constraint in place, so the table is rebuilt with every row and its rowid
 * (the listing's tie-break); PostgreSQL swaps the constraint. Being a different operation in each
 * dialect, it is the one migration here written out twice.
 */
export const authMigrations: readonly Migration[] = [
  schemaMigration(
    '0001-principals-and-keys',
    ({ int64, insertionOrderColumn }) => `
      CREATE TABLE principals (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_at ${int64} NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        ${insertionOrderColumn}
        principal_id TEXT NOT NULL REFERENCES principals (id),
        key_hash TEXT NOT NULL UNIQUE,
        hint TEXT NOT NULL,
        created_at ${int64} NOT NULL,
        revoked_at ${int64}
      );
      CREATE INDEX api_keys_principal ON api_keys (principal_id);
    `,
  ),
  schemaMigration(
    '0002-api-key-roles',
    ({ insertionOrder }) => `
      ALTER TABLE api_keys ADD COLUMN role TEXT NOT NULL DEFAULT 'member'
        CHECK (role IN ('operator', 'member'));
      UPDATE api_keys SET role = 'operator' WHERE id = (
        SELECT id FROM api_keys WHERE revoked_at IS NULL ORDER BY created_at, ${insertionOrder} LIMIT 1
      );
    `,
  ),
  {
    id: '0003-api-key-reporter-role',
    up(db) {
      db.exec(`
        CREATE TABLE api_keys_with_reporter (
          id TEXT PRIMARY KEY,
          principal_id TEXT NOT NULL REFERENCES principals (id),
          key_hash TEXT NOT NULL UNIQUE,
          hint TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          revoked_at INTEGER,
          role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('operator', 'member', 'reporter'))
        );
        INSERT INTO api_keys_with_reporter (rowid, id, principal_id, key_hash, hint, created_at, revoked_at, role)
          SELECT rowid, id, principal_id, key_hash, hint, created_at, revoked_at, role FROM api_keys ORDER BY rowid;
        DROP TABLE api_keys;
        ALTER TABLE api_keys_with_reporter RENAME TO api_keys;
        CREATE INDEX api_keys_principal ON api_keys (principal_id);
      `);
    },
    postgres: `
      ALTER TABLE api_keys DROP CONSTRAINT api_keys_role_check;
      ALTER TABLE api_keys ADD CONSTRAINT api_keys_role_check CHECK (role IN ('operator', 'member', 'reporter'));
    `,
  },
];
