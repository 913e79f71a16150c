import type { Principal } from '@arbiter/auth';
import { requirePrincipal } from '@arbiter/auth';
import { errorBodySchema } from '@arbiter/decision';
import {
  type BudgetAccount,
  formatAmount,
  type LedgerEntry,
  ledgerEntryBody,
  type PrepaidBudgets,
  parseAmount,
} from '@arbiter/harness-server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMIN_PREFIX, type KeyAdministration, requireOperator } from '../auth/key-admin-routes.js';
import { renderAuthenticationFailure } from '../decision/decision-routes.js';
import { zodRequestValidator } from '../decision/zod-request-validator.js';
import { ApiError } from '../errors/api-error.js';

/** What the budget routes need of the prepaid budgets: the server's `PrepaidBudgets` on its database. */
export type BudgetAdministration = Pick<PrepaidBudgets, 'accounts' | 'account' | 'ledgerPage' | 'creditAs'>;

/** Ledger entries one request returns at most; more are paged with `before`. */
export const MAX_LEDGER_PAGE = 200;
export const DEFAULT_LEDGER_PAGE = 50;
/** Idempotency keys: printable ASCII, as the header of the IETF draft and of the UHP API allows. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const MAX_NOTE_LENGTH = 500;

const principalRefSchema = z.object({ id: z.string(), name: z.string() });

const accountSchema = z.object({
  currency: z.string().describe('ISO 4217 code'),
  balance: z.string().describe('what can be reserved now, as a decimal amount (`12.5`)'),
  reserved: z.string().describe('the reservations of running tasks, not settled yet'),
  updated_at: z.string().describe('ISO 8601'),
});

const budgetSchema = z.object({
  object: z.literal('budget'),
  principal: principalRefSchema,
  account: accountSchema.nullable().describe('null: never credited, so its tasks are not metered'),
});

const ledgerEntrySchema = z.object({
  object: z.literal('ledger_entry'),
  id: z.number().int().describe('grows with every entry; page with `before`'),
  kind: z.enum(['credit', 'reserve', 'settle']),
  amount: z.string().describe('signed change of the balance'),
  balance: z.string().describe('the balance after this entry'),
  response_id: z.string().nullable().describe('the task a reservation or settlement is for'),
  note: z.string().nullable(),
  credited_by: principalRefSchema
    .nullable()
    .describe('the operator who credited over this API; null for tasks and for `arbiter billing credit`'),
  created_at: z.string().describe('ISO 8601'),
});

const principalParamsSchema = z.object({
  principal: z.string().min(1).max(100).describe('a principal id (`prn_…`, or `local`)'),
});

const ledgerQuerySchema = z
  .object({
    limit: z.coerce
      .number({ error: `limit must be a whole number from 1 to ${MAX_LEDGER_PAGE}` })
      .int({ error: `limit must be a whole number from 1 to ${MAX_LEDGER_PAGE}` })
      .min(1, { error: `limit must be a whole number from 1 to ${MAX_LEDGER_PAGE}` })
      .max(MAX_LEDGER_PAGE, {
        error: `limit is at most ${MAX_LEDGER_PAGE} entries a page; ask for older ones with before`,
      })
      .default(DEFAULT_LEDGER_PAGE)
      .describe(`entries in this page, 1 to ${MAX_LEDGER_PAGE} (default ${DEFAULT_LEDGER_PAGE})`),
    before: z.coerce
      .number({ error: 'before must be the id of a ledger entry (a positive whole number)' })
      .int({ error: 'before must be the id of a ledger entry (a positive whole number)' })
      .positive({ error: 'before must be the id of a ledger entry (a positive whole number)' })
      .max(Number.MAX_SAFE_INTEGER, { error: 'before must be the id of a ledger entry' })
      .optional()
      .describe('only entries older than this id: the `next_before` of the previous page'),
  })
  .strict();

const ledgerPageSchema = z.object({
  principal: principalRefSchema,
  entries: z.array(ledgerEntrySchema).describe('newest first'),
  has_more: z.boolean(),
  next_before: z
    .number()
    .int()
    .nullable()
    .describe('pass as `before` for the next (older) page; null at the end'),
});

const creditBodySchema = z
  .object({
    amount: z
      .string({ error: 'amount is a decimal number in a string, such as "12.50"' })
      .describe('a positive decimal amount in a string (`"12.50"`): up to 999999, at most 9 decimals'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'currency is a three-letter ISO 4217 code such as "USD"')
      .optional()
      .describe(
        "the currency you mean; refused when the account's (or, for a new one, the server's) differs",
      ),
    note: z
      .string()
      .max(MAX_NOTE_LENGTH, `a note is at most ${MAX_NOTE_LENGTH} characters`)
      .optional()
      .describe('recorded in the ledger entry'),
  })
  .strict();

// Loose: the validated value replaces the request's headers, which keep every other header.
const creditHeadersSchema = z
  .object({
    'idempotency-key': z
      .string()
      .regex(IDEMPOTENCY_KEY, 'Idempotency-Key is 1 to 255 printable ASCII characters without spaces')
      .optional()
      .describe('the same key from the same operator returns the first credit instead of crediting again'),
  })
  .loose();

const creditSchema = z.object({
  object: z.literal('credit'),
  entry: ledgerEntrySchema,
  account: accountSchema,
});

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

function accountBody(account: BudgetAccount) {
  return {
    currency: account.currency,
    balance: formatAmount(account.balanceNanos),
    reserved: formatAmount(account.reservedNanos),
    updated_at: new Date(account.updatedAt).toISOString(),
  };
}

/** Principals by id: every principal of the key store, and the ids budgets name beside them. */
class PrincipalDirectory {
  private constructor(private readonly names: ReadonlyMap<string, string>) {}

  /**
   * The key store's principals, the principals that have an account (`local`, credited by
   * `arbiter billing credit` or under `--no-auth`) and the caller, who may be `local` itself.
   */
  static async read(
    keys: Pick<KeyAdministration, 'listPrincipals'>,
    accounts: readonly BudgetAccount[],
    caller: Principal,
  ): Promise<PrincipalDirectory> {
    const names = new Map<string, string>();
    for (const principal of await keys.listPrincipals()) names.set(principal.id, principal.name);
    if (!names.has(caller.id)) names.set(caller.id, caller.name);
    // An account whose principal the key store does not know is named by its id, as the CLI does.
    for (const account of accounts)
      if (!names.has(account.principalId)) names.set(account.principalId, account.principalId);
    return new PrincipalDirectory(names);
  }

  ids(): string[] {
    return [...this.names.keys()];
  }

  ref(id: string): { id: string; name: string } | null {
    const name = this.names.get(id);
    return name === undefined ? null : { id, name };
  }
}

function notFound(id: string): ApiError {
  return ApiError.of('not_found', `no principal with id ${id} (GET /v1/admin/budgets lists them)`, {
    param: 'principal',
  });
}

function principalOf(request: FastifyRequest): Principal {
  // `requirePrincipal` ran before every route of this plugin.
  if (!request.principal) throw new Error('an admin route ran without a principal');
  return request.principal;
}

/**
 * `/v1/admin/budgets…`: every principal's prepaid budget and ledger, and crediting, for operator
 * keys only (docs/api.md). A principal sees its own budget through the UHP API
 * (`GET /api/harness/v1/billing`); these routes are the operator's view over all of them.
 */
export async function budgetAdminRoutes(
  app: FastifyInstance,
  options: { budgets: BudgetAdministration; keys: Pick<KeyAdministration, 'listPrincipals'> },
): Promise<void> {
  const { budgets, keys } = options;
  app.setValidatorCompiler(zodRequestValidator);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addHook('onRequest', requirePrincipal(renderAuthenticationFailure));
  app.addHook('onRequest', requireOperator);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const directory = async (request: FastifyRequest) => {
    const accounts = await budgets.accounts();
    return { accounts, principals: await PrincipalDirectory.read(keys, accounts, principalOf(request)) };
  };

  const entryBody = (entry: LedgerEntry, principals: PrincipalDirectory) => ({
    object: 'ledger_entry' as const,
    ...ledgerEntryBody(entry),
    credited_by:
      entry.actor === null ? null : (principals.ref(entry.actor) ?? { id: entry.actor, name: entry.actor }),
    created_at: new Date(entry.createdAt).toISOString(),
  });

  routes.get(
    `${ADMIN_PREFIX}/budgets`,
    {
      schema: {
        operationId: 'listBudgets',
        summary: "Every principal's prepaid budget: balance and reserved amount (operator keys only)",
        tags: ['admin'],
        security: [{ bearerAuth: [] }],
        response: { 200: z.object({ budgets: z.array(budgetSchema) }), ...errors },
      },
    },
    async (request) => {
      const { accounts, principals } = await directory(request);
      const byPrincipal = new Map(accounts.map((account) => [account.principalId, account]));
      return {
        budgets: principals.ids().map((id) => {
          const account = byPrincipal.get(id);
          return {
            object: 'budget' as const,
            principal: principals.ref(id) ?? { id, name: id },
            account: account ? accountBody(account) : null,
          };
        }),
      };
    },
  );

  routes.get(
    `${ADMIN_PREFIX}/budgets/:principal/ledger`,
    {
      schema: {
        operationId: 'listLedgerEntries',
        summary: "One principal's ledger, newest first, paged with before (operator keys only)",
        tags: ['admin'],
        security: [{ bearerAuth: [] }],
        params: principalParamsSchema,
        querystring: ledgerQuerySchema,
        response: { 200: ledgerPageSchema, 404: errorBodySchema, ...errors },
      },
    },
    async (request) => {
      const { principals } = await directory(request);
      const principal = principals.ref(request.params.principal);
      if (!principal) throw notFound(request.params.principal);
      const { limit, before } = request.query;
      const page = await budgets.ledgerPage(
        principal.id,
        before === undefined ? { limit } : { limit, before },
      );
      const last = page.entries.at(-1);
      return {
        principal,
        entries: page.entries.map((entry) => entryBody(entry, principals)),
        has_more: page.hasMore,
        next_before: page.hasMore && last ? last.id : null,
      };
    },
  );

  routes.post(
    `${ADMIN_PREFIX}/budgets/:principal/credits`,
    {
      schema: {
        operationId: 'creditBudget',
        summary:
          "Credit a principal's prepaid budget, recorded in its ledger with who credited (operator keys only)",
        description:
          'With an `Idempotency-Key` header, a retry from the same operator answers the first credit (`200`, `Idempotent-Replayed: true`) instead of crediting again; the same key for another credit is `409 idempotency_key_reused`.',
        tags: ['admin'],
        security: [{ bearerAuth: [] }],
        params: principalParamsSchema,
        headers: creditHeadersSchema,
        body: creditBodySchema,
        response: {
          200: creditSchema,
          201: creditSchema,
          404: errorBodySchema,
          409: errorBodySchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { amount, currency, note } = request.body;
      const nanos = parseAmount(amount);
      if (nanos === null || nanos <= 0)
        throw ApiError.of(
          'invalid_amount',
          `amount must be a positive decimal number in a string, up to 999999 with at most 9 decimals (such as "12.50"), not ${JSON.stringify(amount)}`,
          { param: 'amount' },
        );
      const { principals } = await directory(request);
      const principal = principals.ref(request.params.principal);
      if (!principal) throw notFound(request.params.principal);
      let outcome: Awaited<ReturnType<BudgetAdministration['creditAs']>>;
      try {
        outcome = await budgets.creditAs({
          principalId: principal.id,
          amountNanos: nanos,
          note: note ?? null,
          actor: principalOf(request).id,
          idempotencyKey: request.headers['idempotency-key'] ?? null,
          ...(currency === undefined ? {} : { currency }),
        });
      } catch (error) {
        // The one RangeError left once the amount is valid: the sum would leave exact integers.
        if (error instanceof RangeError)
          throw ApiError.of(
            'balance_limit',
            `crediting ${amount} would take the balance of ${principal.name} past the largest amount it can hold exactly`,
            { param: 'amount' },
          );
        throw error;
      }
      if (outcome.outcome === 'currency-mismatch')
        throw ApiError.of(
          'currency_mismatch',
          `the budget of ${principal.name} is in ${outcome.accountCurrency}, not ${currency}; nothing was credited`,
          { param: 'currency' },
        );
      if (outcome.outcome === 'key-reused')
        throw ApiError.of(
          'idempotency_key_reused',
          `this Idempotency-Key was used for another credit (ledger entry ${outcome.entry.id}: ${formatAmount(outcome.entry.amountNanos)} to ${principals.ref(outcome.entry.principalId)?.name ?? outcome.entry.principalId}); nothing was credited. Use a new key for a new credit`,
          { param: 'idempotency-key' },
        );
      if (outcome.outcome === 'replayed') reply.code(200).header('idempotent-replayed', 'true');
      else reply.code(201);
      return {
        object: 'credit' as const,
        entry: entryBody(outcome.entry, principals),
        account: accountBody(outcome.account),
      };
    },
  );
}
