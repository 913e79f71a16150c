import { type Migration, schemaMigration } from '@arbiter/storage';

/**
 * Prepaid budgets. Amounts are integer nano-units of the account's currency (1e-9), so sums and
 * refunds are exact; `CHECK (balance_nanos >= 0)` makes an overdraft impossible even for a bug.
 */
export const billingMigrations: readonly Migration[] = [
  schemaMigration(
    '0200-prepaid-budgets',
    ({ int64, serialKey }) => `
      CREATE TABLE billing_accounts (
        principal_id TEXT PRIMARY KEY,
        currency TEXT NOT NULL,
        balance_nanos ${int64} NOT NULL CHECK (balance_nanos >= 0),
        updated_at ${int64} NOT NULL
      );
      CREATE TABLE billing_reservations (
        response_id TEXT PRIMARY KEY,
        principal_id TEXT NOT NULL,
        model TEXT NOT NULL,
        reserved_nanos ${int64} NOT NULL CHECK (reserved_nanos >= 0),
        charged_nanos ${int64},
        created_at ${int64} NOT NULL,
        settled_at ${int64}
      );
      CREATE INDEX billing_reservations_open ON billing_reservations (settled_at) WHERE settled_at IS NULL;
      CREATE TABLE billing_ledger (
        id ${serialKey},
        principal_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('credit', 'reserve', 'settle')),
        amount_nanos ${int64} NOT NULL,
        balance_nanos ${int64} NOT NULL,
        response_id TEXT,
        note TEXT,
        created_at ${int64} NOT NULL
      );
      CREATE INDEX billing_ledger_principal ON billing_ledger (principal_id, id);
    `,
  ),
  // Who made a credit (the operator's principal, for credits over the admin API) and the
  // Idempotency-Key it was sent with, so a retried credit is recognised instead of paid twice.
  // The key is unique per actor: two operators never collide on each other's keys.
  schemaMigration(
    '0201-ledger-credit-actor',
    () => `
      ALTER TABLE billing_ledger ADD COLUMN actor TEXT;
      ALTER TABLE billing_ledger ADD COLUMN idempotency_key TEXT;
      CREATE UNIQUE INDEX billing_ledger_idempotency ON billing_ledger (actor, idempotency_key)
        WHERE idempotency_key IS NOT NULL;
    `,
  ),
];
