import type { SqlDatabase } from '@arbiter/storage';
import { applyMigrations, SqliteDatabase } from '@arbiter/storage';
import type { Database } from 'better-sqlite3';
import { billingMigrations } from './billing-migrations.js';
import { formatAmount } from './money.js';

/** Prices of the models tasks run on; a model without a price costs nothing. */
export interface BudgetPricing {
  /** ISO 4217 code the prices are in (default `USD`); new accounts take it. */
  readonly currency?: string;
  /** Output price per million tokens, by model id (`arbiter-offline`, `gemini-cli`, …). */
  readonly outputPricePerMillionTokens?: Readonly<Record<string, number>>;
  /**
   * The output cap applied to a metered principal's task that sets no `max_output_tokens`, so every
   * reservation is bounded. Default 4096.
   */
  readonly defaultMaxOutputTokens?: number;
}

export const DEFAULT_CURRENCY = 'USD';
export const DEFAULT_METERED_MAX_OUTPUT_TOKENS = 4096;

export interface BudgetAccount {
  readonly principalId: string;
  readonly currency: string;
  /** What can be reserved now (credits minus open reservations minus settled charges). */
  readonly balanceNanos: number;
  /** Sum of reservations not settled yet. */
  readonly reservedNanos: number;
  readonly updatedAt: number;
}

export interface LedgerEntry {
  readonly id: number;
  readonly principalId: string;
  readonly kind: 'credit' | 'reserve' | 'settle';
  /** Signed change of the balance. */
  readonly amountNanos: number;
  readonly balanceNanos: number;
  readonly responseId: string | null;
  readonly note: string | null;
  /** Who made a credit over the admin API (the operator's principal id); null otherwise. */
  readonly actor: string | null;
  readonly createdAt: number;
}

/** One page of a principal's ledger, newest first. */
export interface LedgerPage {
  readonly entries: readonly LedgerEntry[];
  /** Whether older entries remain (ask again with `before` the last entry's id). */
  readonly hasMore: boolean;
}

/** A credit someone asked for (the admin API), recorded with who asked. */
export interface CreditRequest {
  readonly principalId: string;
  readonly amountNanos: number;
  readonly note: string | null;
  /** Who credits: recorded in the ledger entry. */
  readonly actor: string;
  /**
   * Names the credit for retries: the same actor sending the same key again gets the first
   * credit back instead of a second one. Null: every request credits.
   */
  readonly idempotencyKey: string | null;
  /** The currency the caller means; the credit is refused when the account is in another. */
  readonly currency?: string;
}

export type CreditOutcome =
  | { readonly outcome: 'credited'; readonly entry: LedgerEntry; readonly account: BudgetAccount }
  /** The key was used before for the same credit: nothing is credited again. */
  | { readonly outcome: 'replayed'; readonly entry: LedgerEntry; readonly account: BudgetAccount }
  /** The key was used before for another credit (principal, amount or note differ). */
  | { readonly outcome: 'key-reused'; readonly entry: LedgerEntry }
  | { readonly outcome: 'currency-mismatch'; readonly accountCurrency: string };

export type Reservation =
  /** The principal has no account: nothing is reserved or charged. */
  | { readonly metered: false }
  | {
      readonly metered: true;
      readonly ok: true;
      readonly reservedNanos: number;
      readonly maxOutputTokens: number;
    }
  /** The balance is in another currency than the prices: nothing can be reserved from it. */
  | {
      readonly metered: true;
      readonly ok: false;
      readonly reason: 'currency_mismatch';
      readonly balanceCurrency: string;
      readonly priceCurrency: string;
    }
  | {
      readonly metered: true;
      readonly ok: false;
      readonly reason: 'insufficient_balance';
      readonly requiredNanos: number;
      readonly availableNanos: number;
      readonly currency: string;
    };

export interface Settlement {
  readonly reservedNanos: number;
  readonly chargedNanos: number;
}

interface AccountRow {
  principal_id: string;
  currency: string;
  balance_nanos: number;
  updated_at: number;
}

interface LedgerRow {
  id: number;
  principal_id: string;
  kind: LedgerEntry['kind'];
  amount_nanos: number;
  balance_nanos: number;
  response_id: string | null;
  note: string | null;
  actor: string | null;
  idempotency_key: string | null;
  created_at: number;
}

interface ReservationRow {
  response_id: string;
  principal_id: string;
  model: string;
  reserved_nanos: number;
  settled_at: number | null;
}

/**
 * Prepaid balances of principals. A task reserves its worst case (`max_output_tokens × output
 * price`) before it exists and settles to its actual usage exactly once when it ends. Every change is
 * one transaction (or part of the caller's) that first locks the principal's account (SQLite:
 * `BEGIN IMMEDIATE`; PostgreSQL: `SELECT … FOR UPDATE`), so two processes on the same database —
 * two servers, or a server and `arbiter billing credit` — serialise and never overdraw.
 */
export class PrepaidBudgets {
  private readonly currency: string;
  private readonly prices: ReadonlyMap<string, number>;
  private readonly defaultMaxOutputTokens: number;
  private readonly db: SqlDatabase;

  /**
   * On a better-sqlite3 connection (the CLI, tests), the billing tables are created when missing;
   * a `SqlDatabase` must already hold them (`openStorage` applies every migration).
   */
  constructor(db: SqlDatabase | Database, pricing: BudgetPricing = {}) {
    if ('dialect' in db) this.db = db;
    else {
      applyMigrations(db, billingMigrations);
      this.db = new SqliteDatabase(db);
    }
    this.currency = pricing.currency ?? DEFAULT_CURRENCY;
    this.defaultMaxOutputTokens = pricing.defaultMaxOutputTokens ?? DEFAULT_METERED_MAX_OUTPUT_TOKENS;
    this.prices = new Map(
      Object.entries(pricing.outputPricePerMillionTokens ?? {}).map(([model, perMillion]) => {
        if (!Number.isFinite(perMillion) || perMillion < 0)
          throw new RangeError(`The output price of ${model} must be a non-negative number.`);
        // Per million tokens to nano-units per token: precise to 0.001 per million tokens.
        return [model, Math.round(perMillion * 1000)];
      }),
    );
  }

  /** Nano-units one output token of `model` costs (0 when the model has no price). */
  outputPriceNanos(model: string): number {
    return this.prices.get(model) ?? 0;
  }

  /** Adds credit, opening the account (in `currency`) when the principal has none. */
  async credit(principalId: string, amountNanos: number, note: string | null = null): Promise<BudgetAccount> {
    return this.db.transaction(
      async (tx) => (await this.creditIn(tx, principalId, amountNanos, note, null)).account,
    );
  }

  /**
   * A credit asked for by `actor` (an operator over the admin API): recorded with who asked, and
   * made at most once per idempotency key. The key is looked up under a lock on it, so two
   * retries arriving together credit once.
   */
  creditAs(request: CreditRequest): Promise<CreditOutcome> {
    return this.db.transaction(async (tx): Promise<CreditOutcome> => {
      if (request.idempotencyKey !== null) {
        await tx.lock(`billing-credit:${request.actor}:${request.idempotencyKey}`);
        const earlier = await tx.get<LedgerRow>(
          'SELECT * FROM billing_ledger WHERE actor = ? AND idempotency_key = ?',
          [request.actor, request.idempotencyKey],
        );
        if (earlier) {
          const entry = entryOf(earlier);
          const same =
            earlier.principal_id === request.principalId &&
            earlier.amount_nanos === request.amountNanos &&
            earlier.note === request.note;
          if (!same) return { outcome: 'key-reused', entry };
          return {
            outcome: 'replayed',
            entry,
            account: (await this.accountIn(tx, request.principalId)) as BudgetAccount,
          };
        }
      }
      if (request.currency !== undefined) {
        await tx.lock(`billing-account:${request.principalId}`);
        const currency = (await this.lockedAccountRow(tx, request.principalId))?.currency ?? this.currency;
        if (currency !== request.currency) return { outcome: 'currency-mismatch', accountCurrency: currency };
      }
      const credited = await this.creditIn(tx, request.principalId, request.amountNanos, request.note, {
        actor: request.actor,
        idempotencyKey: request.idempotencyKey,
      });
      return { outcome: 'credited', ...credited };
    });
  }

  private async creditIn(
    tx: SqlDatabase,
    principalId: string,
    amountNanos: number,
    note: string | null,
    by: Attribution | null,
  ): Promise<{ entry: LedgerEntry; account: BudgetAccount }> {
    if (!Number.isSafeInteger(amountNanos) || amountNanos <= 0)
      throw new RangeError('A credit must be a positive amount.');
    const now = Date.now();
    // Two first credits at once would both find no account: the lock makes the second wait.
    await tx.lock(`billing-account:${principalId}`);
    const existing = await this.lockedAccountRow(tx, principalId);
    const balance = (existing?.balance_nanos ?? 0) + amountNanos;
    if (!Number.isSafeInteger(balance)) throw new RangeError('That credit would exceed the largest balance.');
    if (existing)
      await tx.run('UPDATE billing_accounts SET balance_nanos = ?, updated_at = ? WHERE principal_id = ?', [
        balance,
        now,
        principalId,
      ]);
    else
      await tx.run(
        'INSERT INTO billing_accounts (principal_id, currency, balance_nanos, updated_at) VALUES (?, ?, ?, ?)',
        [principalId, this.currency, balance, now],
      );
    const entry = await this.record(tx, principalId, 'credit', amountNanos, balance, null, note, now, by);
    return { entry, account: (await this.accountIn(tx, principalId)) as BudgetAccount };
  }

  account(principalId: string): Promise<BudgetAccount | null> {
    return this.accountIn(this.db, principalId);
  }

  async accounts(): Promise<BudgetAccount[]> {
    const rows = await this.db.all<AccountRow>('SELECT * FROM billing_accounts ORDER BY principal_id');
    return Promise.all(rows.map((row) => this.present(this.db, row)));
  }

  /** Ledger entries, oldest first; at most `limit` of the newest. */
  async entries(principalId: string | null = null, limit = 1000): Promise<LedgerEntry[]> {
    const rows = principalId
      ? await this.db.all<LedgerRow>(
          'SELECT * FROM billing_ledger WHERE principal_id = ? ORDER BY id DESC LIMIT ?',
          [principalId, limit],
        )
      : await this.db.all<LedgerRow>('SELECT * FROM billing_ledger ORDER BY id DESC LIMIT ?', [limit]);
    return rows.reverse().map(entryOf);
  }

  /**
   * One principal's ledger, newest first: at most `limit` entries older than the entry `before`
   * (from the newest when absent). Ids only grow, so a page never shifts when entries are added.
   */
  async ledgerPage(principalId: string, page: { limit: number; before?: number }): Promise<LedgerPage> {
    const rows = await this.db.all<LedgerRow>(
      `SELECT * FROM billing_ledger WHERE principal_id = ?${page.before === undefined ? '' : ' AND id < ?'}
         ORDER BY id DESC LIMIT ?`,
      page.before === undefined ? [principalId, page.limit + 1] : [principalId, page.before, page.limit + 1],
    );
    return { entries: rows.slice(0, page.limit).map(entryOf), hasMore: rows.length > page.limit };
  }

  /**
   * Reserves the worst case of a task about to be created. Pass the transaction that inserts the
   * response as `within`, so a refused reservation leaves nothing behind and an accepted one exists
   * exactly when its response does.
   */
  reserve(
    task: {
      principalId: string;
      responseId: string;
      model: string;
      maxOutputTokens: number | null;
    },
    within: SqlDatabase = this.db,
  ): Promise<Reservation> {
    return within.transaction(async (tx): Promise<Reservation> => {
      const account = await this.lockedAccountRow(tx, task.principalId);
      if (!account) return { metered: false };
      if (account.currency !== this.currency)
        return {
          metered: true,
          ok: false,
          reason: 'currency_mismatch',
          balanceCurrency: account.currency,
          priceCurrency: this.currency,
        };
      const maxOutputTokens = task.maxOutputTokens ?? this.defaultMaxOutputTokens;
      const required = maxOutputTokens * this.outputPriceNanos(task.model);
      if (!Number.isSafeInteger(required) || required > account.balance_nanos)
        return {
          metered: true,
          ok: false,
          reason: 'insufficient_balance',
          requiredNanos: required,
          availableNanos: account.balance_nanos,
          currency: account.currency,
        };
      const now = Date.now();
      const balance = account.balance_nanos - required;
      await tx.run('UPDATE billing_accounts SET balance_nanos = ?, updated_at = ? WHERE principal_id = ?', [
        balance,
        now,
        task.principalId,
      ]);
      await tx.run(
        `INSERT INTO billing_reservations (response_id, principal_id, model, reserved_nanos, created_at)
           VALUES (?, ?, ?, ?, ?)`,
        [task.responseId, task.principalId, task.model, required, now],
      );
      await this.record(
        tx,
        task.principalId,
        'reserve',
        -required,
        balance,
        task.responseId,
        `${maxOutputTokens} output tokens of ${task.model}`,
        now,
      );
      return { metered: true, ok: true, reservedNanos: required, maxOutputTokens };
    });
  }

  /**
   * Settles a task's reservation to its actual output usage, refunding the rest; a second call for
   * the same response does nothing (returns null), as does a response that reserved nothing. Unknown
   * usage (`null`) keeps the whole reservation charged: never a guessed lower amount. The
   * reservation row is locked first, so two nodes settling the same response settle it once.
   */
  settle(
    responseId: string,
    usage: { readonly output_tokens?: number } | null | undefined,
    within: SqlDatabase = this.db,
  ): Promise<Settlement | null> {
    return within.transaction(async (tx): Promise<Settlement | null> => {
      const reservation = await tx.get<ReservationRow>(
        `SELECT * FROM billing_reservations WHERE response_id = ?${tx.dialect === 'postgres' ? ' FOR UPDATE' : ''}`,
        [responseId],
      );
      if (!reservation || reservation.settled_at !== null) return null;
      const outputTokens = usage?.output_tokens ?? null;
      const actual =
        outputTokens !== null
          ? outputTokens * this.outputPriceNanos(reservation.model)
          : reservation.reserved_nanos;
      // The runtime was held to the reserved token count; a provider that overshoots is not billed
      // past what the principal agreed to reserve.
      const charged = Math.min(actual, reservation.reserved_nanos);
      const refund = reservation.reserved_nanos - charged;
      const now = Date.now();
      const account = await this.lockedAccountRow(tx, reservation.principal_id);
      const balance = (account?.balance_nanos ?? 0) + refund;
      if (account)
        await tx.run('UPDATE billing_accounts SET balance_nanos = ?, updated_at = ? WHERE principal_id = ?', [
          balance,
          now,
          reservation.principal_id,
        ]);
      await tx.run(
        'UPDATE billing_reservations SET charged_nanos = ?, settled_at = ? WHERE response_id = ?',
        [charged, now, responseId],
      );
      const note =
        outputTokens !== null
          ? `charged ${formatAmount(charged)} for ${outputTokens} output tokens`
          : `usage unknown: the reservation of ${formatAmount(charged)} stays charged`;
      await this.record(tx, reservation.principal_id, 'settle', refund, balance, responseId, note, now);
      return { reservedNanos: reservation.reserved_nanos, chargedNanos: charged };
    });
  }

  /** Reservations not settled yet (a running task, or one a crash interrupted). */
  async openReservations(): Promise<{ responseId: string; principalId: string; reservedNanos: number }[]> {
    const rows = await this.db.all<ReservationRow>(
      'SELECT * FROM billing_reservations WHERE settled_at IS NULL ORDER BY created_at',
    );
    return rows.map((row) => ({
      responseId: row.response_id,
      principalId: row.principal_id,
      reservedNanos: row.reserved_nanos,
    }));
  }

  /** The account row, locked until the transaction ends where the dialect needs it. */
  private lockedAccountRow(tx: SqlDatabase, principalId: string): Promise<AccountRow | undefined> {
    return tx.get<AccountRow>(
      `SELECT * FROM billing_accounts WHERE principal_id = ?${tx.dialect === 'postgres' ? ' FOR UPDATE' : ''}`,
      [principalId],
    );
  }

  private async accountIn(db: SqlDatabase, principalId: string): Promise<BudgetAccount | null> {
    const row = await db.get<AccountRow>('SELECT * FROM billing_accounts WHERE principal_id = ?', [
      principalId,
    ]);
    return row ? this.present(db, row) : null;
  }

  private async present(db: SqlDatabase, row: AccountRow): Promise<BudgetAccount> {
    const reserved = await db.get<{ total: number }>(
      'SELECT CAST(COALESCE(SUM(reserved_nanos), 0) AS BIGINT) AS total FROM billing_reservations WHERE principal_id = ? AND settled_at IS NULL',
      [row.principal_id],
    );
    return {
      principalId: row.principal_id,
      currency: row.currency,
      balanceNanos: row.balance_nanos,
      reservedNanos: reserved?.total ?? 0,
      updatedAt: row.updated_at,
    };
  }

  private async record(
    tx: SqlDatabase,
    principalId: string,
    kind: LedgerEntry['kind'],
    amount: number,
    balance: number,
    responseId: string | null,
    note: string | null,
    at: number,
    by: Attribution | null = null,
  ): Promise<LedgerEntry> {
    const row = await tx.get<LedgerRow>(
      `INSERT INTO billing_ledger
         (principal_id, kind, amount_nanos, balance_nanos, response_id, note, created_at, actor, idempotency_key)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      [
        principalId,
        kind,
        amount,
        balance,
        responseId,
        note,
        at,
        by?.actor ?? null,
        by?.idempotencyKey ?? null,
      ],
    );
    if (!row) throw new Error('the ledger returned no entry for an insert');
    return entryOf(row);
  }
}

interface Attribution {
  readonly actor: string;
  readonly idempotencyKey: string | null;
}

function entryOf(row: LedgerRow): LedgerEntry {
  return {
    id: row.id,
    principalId: row.principal_id,
    kind: row.kind,
    amountNanos: row.amount_nanos,
    balanceNanos: row.balance_nanos,
    responseId: row.response_id,
    note: row.note,
    actor: row.actor,
    createdAt: row.created_at,
  };
}
