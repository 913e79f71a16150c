import type { Migration } from '@arbiter/storage';

/**
 * Prepaid budgets. Amounts are integer nano-units of the account's currency (1e-9), so sums and
 * refunds are exact; `CHECK (balance_nanos >= 0)` makes an overdraft impossible even for a bug.
 */
export const billingMigrations: readonly Migration[] = [
  {
    id: '0200-prepaid-budgets',
    up(db) {
      db.exec(`
        CREATE TABLE billing_accounts (
          principal_id TEXT PRIMARY KEY,
          currency TEXT NOT NULL,
          balance_nanos INTEGER NOT NULL CHECK (balance_nanos >= 0),
          updated_at INTEGER NOT NULL
        );
        CREATE TABLE billing_reservations (
          response_id TEXT PRIMARY KEY,
          principal_id TEXT NOT NULL,
          model TEXT NOT NULL,
          reserved_nanos INTEGER NOT NULL CHECK (reserved_nanos >= 0),
          charged_nanos INTEGER,
          created_at INTEGER NOT NULL,
          settled_at INTEGER
        );
        CREATE INDEX billing_reservations_open ON billing_reservations (settled_at) WHERE settled_at IS NULL;
        CREATE TABLE billing_ledger (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          principal_id TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('credit', 'reserve', 'settle')),
          amount_nanos INTEGER NOT NULL,
          balance_nanos INTEGER NOT NULL,
          response_id TEXT,
          note TEXT,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX billing_ledger_principal ON billing_ledger (principal_id, id);
      `);
    },
    postgres: `
      CREATE TABLE billing_accounts (
        principal_id TEXT PRIMARY KEY,
        currency TEXT NOT NULL,
        balance_nanos BIGINT NOT NULL CHECK (balance_nanos >= 0),
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE billing_reservations (
        response_id TEXT PRIMARY KEY,
        principal_id TEXT NOT NULL,
        model TEXT NOT NULL,
        reserved_nanos BIGINT NOT NULL CHECK (reserved_nanos >= 0),
        charged_nanos BIGINT,
        created_at BIGINT NOT NULL,
        settled_at BIGINT
      );
      CREATE INDEX billing_reservations_open ON billing_reservations (settled_at) WHERE settled_at IS NULL;
      CREATE TABLE billing_ledger (
        id BIGSERIAL PRIMARY KEY,
        principal_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('credit', 'reserve', 'settle')),
        amount_nanos BIGINT NOT NULL,
        balance_nanos BIGINT NOT NULL,
        response_id TEXT,
        note TEXT,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX billing_ledger_principal ON billing_ledger (principal_id, id);
    `,
  },
  {
    // Who made a credit (the operator's principal, for credits over the admin API) and the
    // Idempotency-Key it was sent with, so a retried credit is recognised instead of paid twice.
    // The key is unique per actor: two operators never collide on each other's keys.
    id: '0201-ledger-credit-actor',
    up(db) {
      db.exec(`
        ALTER TABLE billing_ledger ADD COLUMN actor TEXT;
        ALTER TABLE billing_ledger ADD COLUMN idempotency_key TEXT;
        CREATE UNIQUE INDEX billing_ledger_idempotency ON billing_ledger (actor, idempotency_key)
          WHERE idempotency_key IS NOT NULL;
      `);
    },
    postgres: `
      ALTER TABLE billing_ledger ADD COLUMN actor TEXT;
      ALTER TABLE billing_ledger ADD COLUMN idempotency_key TEXT;
      CREATE UNIQUE INDEX billing_ledger_idempotency ON billing_ledger (actor, idempotency_key)
        WHERE idempotency_key IS NOT NULL;
    `,
  },
];
