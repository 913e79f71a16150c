import { formatAmount, PrepaidBudgets, parseAmount } from '@arbiter/harness-server';
import { LOCAL_PRINCIPAL_NAME } from '@arbiter/server';
import type { SqlDatabase } from '@arbiter/storage';
import { invocationIo } from '../../invocation-io.js';
import type { DatabaseOptions } from '../server-database/database-options.js';
import { openServerDatabase } from '../server-database/open-server-database.js';
import { formatTextTable } from '../text-table.js';
import { UsageError } from '../usage-error.js';

export type BillingOptions = DatabaseOptions;

interface Principals {
  idOf(nameOrId: string): Promise<string>;
  nameOf(id: string): Promise<string>;
}

async function withBudgets<T>(
  options: BillingOptions & { currency?: string },
  use: (budgets: PrepaidBudgets, principals: Principals) => Promise<T>,
): Promise<T> {
  const db = await openServerDatabase(options, { mayCreate: true });
  try {
    return await use(new PrepaidBudgets(db, { currency: options.currency }), principalsOf(db));
  } finally {
    await db.close();
  }
}

/** Principals are named in `arbiter keys`; balances are kept by id. `local` is the --no-auth principal. */
function principalsOf(db: SqlDatabase): Principals {
  // A ledger names few principals many times: each is read once.
  const names = new Map<string, Promise<string>>();
  return {
    async idOf(nameOrId) {
      const row = await db.get<{ id: string }>('SELECT id FROM principals WHERE name = ? OR id = ?', [
        nameOrId,
        nameOrId,
      ]);
      if (row) return row.id;
      if (nameOrId === LOCAL_PRINCIPAL_NAME) return LOCAL_PRINCIPAL_NAME;
      throw new UsageError(`no principal named ${nameOrId} (see \`arbiter keys list\`)`);
    },
    nameOf(id) {
      let name = names.get(id);
      if (name === undefined) {
        name = db
          .get<{ name: string }>('SELECT name FROM principals WHERE id = ?', [id])
          .then((row) => row?.name ?? id);
        names.set(id, name);
      }
      return name;
    },
  };
}

export async function credit(
  principal: string,
  amount: string,
  options: BillingOptions & { currency?: string; note?: string },
): Promise<number> {
  const nanos = parseAmount(amount);
  if (nanos === null || nanos <= 0)
    throw new UsageError(
      `the amount must be a positive decimal number (up to 999999, at most 9 decimals), not "${amount}"`,
    );
  if (options.currency !== undefined && !/^[A-Z]{3}$/.test(options.currency))
    throw new UsageError(`the currency must be a three-letter ISO 4217 code, not "${options.currency}"`);
  const account = await withBudgets(options, async (budgets, principals) => {
    const id = await principals.idOf(principal);
    const existing = await budgets.account(id);
    if (existing && options.currency !== undefined && existing.currency !== options.currency)
      throw new UsageError(`the balance of ${principal} is in ${existing.currency}, not ${options.currency}`);
    return budgets.credit(id, nanos, options.note ?? null);
  });
  invocationIo().writeStdout(
    `credited ${formatAmount(nanos)} ${account.currency} to ${principal}: balance ${formatAmount(account.balanceNanos)} ${account.currency}\n`,
  );
  return 0;
}

export async function show(
  principal: string | undefined,
  options: BillingOptions & { json?: boolean },
): Promise<number> {
  const rows = await withBudgets(options, async (budgets, principals) => {
    const accounts = principal
      ? [await budgets.account(await principals.idOf(principal))].filter((account) => account !== null)
      : await budgets.accounts();
    return Promise.all(
      accounts.map(async (account) => ({
        principal: await principals.nameOf(account.principalId),
        principal_id: account.principalId,
        currency: account.currency,
        balance: formatAmount(account.balanceNanos),
        reserved: formatAmount(account.reservedNanos),
      })),
    );
  });
  if (options.json) {
    invocationIo().writeStdout(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    invocationIo().writeStdout(
      principal
        ? `${principal} has no balance: unmetered\n`
        : 'no principal has a balance: everyone is unmetered\n',
    );
    return 0;
  }
  invocationIo().writeStdout(
    formatTextTable(
      ['principal', 'balance', 'reserved'],
      rows.map((row) => [row.principal, `${row.balance} ${row.currency}`, `${row.reserved} ${row.currency}`]),
    ),
  );
  return 0;
}

export async function ledger(
  principal: string | undefined,
  options: BillingOptions & { json?: boolean; limit: string },
): Promise<number> {
  const limit = Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive integer');
  const entries = await withBudgets(options, async (budgets, principals) =>
    Promise.all(
      (await budgets.entries(principal ? await principals.idOf(principal) : null, limit)).map(
        async (entry) => ({
          id: entry.id,
          at: new Date(entry.createdAt).toISOString(),
          principal: await principals.nameOf(entry.principalId),
          kind: entry.kind,
          amount: formatAmount(entry.amountNanos),
          balance: formatAmount(entry.balanceNanos),
          response_id: entry.responseId,
          note: entry.note,
        }),
      ),
    ),
  );
  if (options.json) {
    invocationIo().writeStdout(`${JSON.stringify(entries, null, 2)}\n`);
    return 0;
  }
  invocationIo().writeStdout(
    formatTextTable(
      ['at', 'principal', 'kind', 'amount', 'balance', 'response', 'note'],
      entries.map((entry) => [
        entry.at,
        entry.principal,
        entry.kind,
        entry.amount,
        entry.balance,
        entry.response_id ?? '',
        entry.note ?? '',
      ]),
    ),
  );
  return 0;
}
