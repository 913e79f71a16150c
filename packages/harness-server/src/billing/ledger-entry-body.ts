import { formatAmount } from './money.js';
import type { LedgerEntry } from './prepaid-budgets.js';

/**
 * The members of a ledger entry that every API answering one shows, amounts as decimal strings:
 * the caller's own `GET /v1/billing` (UHP) and the operator's `/v1/admin/budgets/…/ledger` (the
 * server). Each adds what only it says (the admin API who credited, and the time in its own form).
 */
export function ledgerEntryBody(entry: LedgerEntry) {
  return {
    id: entry.id,
    kind: entry.kind,
    amount: formatAmount(entry.amountNanos),
    balance: formatAmount(entry.balanceNanos),
    response_id: entry.responseId,
    note: entry.note,
  };
}
