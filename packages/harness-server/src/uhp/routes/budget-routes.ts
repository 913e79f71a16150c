import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ledgerEntryBody } from '../../billing/ledger-entry-body.js';
import { formatAmount } from '../../billing/money.js';
import { BEARER, errorAnswers, integerQuery } from './uhp-route-schemas.js';

const decimal = z.string().describe('A decimal amount');
const billingSchema = z.object({
  object: z.literal('billing.account'),
  account: z
    .object({ currency: z.string(), balance: decimal, reserved: decimal, updated_at: z.number().int() })
    .nullable()
    .describe('null for a principal never credited (unmetered)'),
  ledger: z.array(
    z.object({
      id: z.number().int(),
      kind: z.enum(['credit', 'reserve', 'settle']),
      amount: decimal,
      balance: decimal,
      response_id: z.string().nullable(),
      note: z.string().nullable(),
      created_at: z.number().int(),
    }),
  ),
});

/**
 * `GET /v1/billing`: the caller's own prepaid budget (balance, open reservations) and its newest
 * ledger entries. Read-only: crediting stays the operator's (`arbiter billing credit`), and no
 * principal sees another's account. `account` is null for a principal never credited (unmetered).
 */
export const budgetRoutes = fastifyPlugin(
  async (app: FastifyInstance) => {
    const budgets = app.uhpBudgets;

    const billing = {
      schema: {
        operationId: 'uhpBilling',
        summary: 'Your prepaid budget and its newest ledger entries (read-only)',
        tags: ['uhp: billing'],
        security: BEARER,
        querystring: z.object({
          limit: integerQuery(1, 1000).describe('Ledger entries, newest first; default 100'),
        }),
        response: { 200: billingSchema.describe('The account and its ledger'), ...errorAnswers([]) },
      },
    };
    app.withTypeProvider<ZodTypeProvider>().get('/v1/billing', billing, async (request) => {
      const limit = request.query.limit ?? 100;
      const principal = request.principal!.id;
      const account = await budgets.account(principal);
      const entries = await budgets.entries(principal, limit);
      return {
        object: 'billing.account' as const,
        account: account && {
          currency: account.currency,
          balance: formatAmount(account.balanceNanos),
          reserved: formatAmount(account.reservedNanos),
          updated_at: account.updatedAt,
        },
        ledger: entries
          .reverse()
          .map((entry) => ({ ...ledgerEntryBody(entry), created_at: entry.createdAt })),
      };
    });
  },
  { name: 'arbiter-uhp-budget-routes', fastify: '5.x', decorators: { fastify: ['uhpBudgets'] } },
);
