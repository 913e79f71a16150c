import type { FastifyInstance } from 'fastify';
import { formatAmount } from '../../billing/money.js';
import type { PrepaidBudgets } from '../../billing/prepaid-budgets.js';
import { invalidInput } from '../uhp-error.js';
import type { UhpServices } from '../uhp-services.js';

/**
 * `GET /v1/billing`: the caller's own prepaid budget (balance, open reservations) and its newest
 * ledger entries. Read-only: crediting stays the operator's (`arbiter billing credit`), and no
 * principal sees another's account. `account` is null for a principal never credited (unmetered).
 */
export function registerBudgetRoutes(
  app: FastifyInstance,
  services: UhpServices,
  budgets: PrepaidBudgets,
): void {
  app.get<{ Querystring: { limit?: string } }>('/v1/billing', async (request) => {
    const limit = request.query.limit === undefined ? 100 : Number(request.query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      throw invalidInput('limit must be an integer from 1 to 1000.', 'limit');
    const principal = services.principalOf(request);
    const account = await budgets.account(principal);
    const entries = await budgets.entries(principal, limit);
    return {
      object: 'billing.account',
      account: account && {
        currency: account.currency,
        balance: formatAmount(account.balanceNanos),
        reserved: formatAmount(account.reservedNanos),
        updated_at: account.updatedAt,
      },
      ledger: entries.reverse().map((entry) => ({
        id: entry.id,
        kind: entry.kind,
        amount: formatAmount(entry.amountNanos),
        balance: formatAmount(entry.balanceNanos),
        response_id: entry.responseId,
        note: entry.note,
        created_at: entry.createdAt,
      })),
    };
  });
}
