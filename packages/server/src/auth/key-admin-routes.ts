import { KEY_ROLES, type KeyRole, requirePrincipal } from '@arbiter/auth';
import { errorBodySchema } from '@arbiter/decision';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { renderAuthenticationFailure } from '../decision/decision-routes.js';
import { zodRequestValidator } from '../decision/zod-request-validator.js';
import { ApiError } from '../errors/api-error.js';
import type {
  ApiKeyRecord,
  CreatedApiKey,
  PrincipalRecord,
  RevokeOptions,
  RevokeOutcome,
} from './key-records.js';

/**
 * What the admin routes need of a key store (`KeyStore` answers it on either backend). It must be
 * the very store the server authenticates with, so a revocation reaches its cache (and, through the
 * stream sweep, open streams) at once.
 */
export interface KeyAdministration {
  list(): Promise<ApiKeyRecord[]>;
  listPrincipals(): Promise<PrincipalRecord[]>;
  create(principalName: string | undefined, role: KeyRole): Promise<CreatedApiKey>;
  revoke(id: string, options: RevokeOptions): Promise<RevokeOutcome | 'last-operator'>;
}

export const ADMIN_PREFIX = '/v1/admin';

/** Principal names given over the API: printable, no spaces, so they read the same in a table, a log and a shell. */
const PRINCIPAL_NAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}$/;

const principalSchema = z.object({
  object: z.literal('principal'),
  id: z.string(),
  name: z.string(),
  created_at: z.string().describe('ISO 8601'),
  active_keys: z.number().int().describe('keys of the principal that are not revoked'),
});

const keySchema = z.object({
  object: z.literal('api_key'),
  id: z.string(),
  principal: z.object({ id: z.string(), name: z.string() }),
  role: z.enum(KEY_ROLES),
  hint: z.string().describe('the last four characters of the key; the key and its hash are never returned'),
  created_at: z.string().describe('ISO 8601'),
  revoked_at: z.string().nullable().describe('ISO 8601, or null while the key is accepted'),
});

/** The largest page of `GET /v1/admin/keys`, and the page given without `limit`. */
export const MAX_KEYS_PAGE = 1000;

const PAGE_LIMIT_ERROR = `limit must be a whole number from 1 to ${MAX_KEYS_PAGE}`;
const keysQuerySchema = z
  .object({
    limit: z.coerce
      .number({ error: PAGE_LIMIT_ERROR })
      .int({ error: PAGE_LIMIT_ERROR })
      .min(1, { error: PAGE_LIMIT_ERROR })
      .max(MAX_KEYS_PAGE, { error: PAGE_LIMIT_ERROR })
      .default(MAX_KEYS_PAGE)
      .describe(`keys in this page, 1 to ${MAX_KEYS_PAGE} (default ${MAX_KEYS_PAGE})`),
    after: z
      .string()
      .min(1, { error: 'after must be the id of a key (next_after of the previous page)' })
      .optional()
      .describe('the id of the last key of the previous page (its `next_after`)'),
  })
  .strict();

const createKeyBodySchema = z
  .object({
    principal: z
      .string()
      .regex(
        PRINCIPAL_NAME,
        'a principal name is 1 to 100 characters: letters, digits and . _ @ + -, starting with a letter or digit',
      )
      .optional()
      .describe('the principal that owns the key, created when missing; default a new principal of its own'),
    role: z
      .enum(KEY_ROLES)
      .default('member')
      .describe(
        '`member` (default), `operator`, or `reporter` (a gate hook: may only send verdict records and read the team policy)',
      ),
  })
  .strict();

const createdKeySchema = keySchema.extend({
  key: z.string().describe('the key in the clear: returned this once, never stored, never shown again'),
});

const keyIdParamsSchema = z.object({ id: z.string().min(1).max(100) });

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

function principalBody(record: PrincipalRecord) {
  return {
    object: 'principal' as const,
    id: record.id,
    name: record.name,
    created_at: record.createdAt.toISOString(),
    active_keys: record.activeKeys,
  };
}

function keyBody(record: ApiKeyRecord) {
  // Named member by member: the record carries no secret today, and a field added to it later must
  // be chosen here to reach the wire.
  return {
    object: 'api_key' as const,
    id: record.id,
    principal: { id: record.principal.id, name: record.principal.name },
    role: record.role,
    hint: record.hint,
    created_at: record.createdAt.toISOString(),
    revoked_at: record.revokedAt?.toISOString() ?? null,
  };
}

/**
 * Least privilege: a key administers keys only when it was made an operator. A member key could
 * otherwise mint keys that outlive its own revocation.
 */
export function requireOperator(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  if (request.role === 'operator') {
    done();
    return;
  }
  const error = ApiError.of(
    'operator_required',
    'this route needs an operator key; the key you sent is a member key, which uses the API as its principal but cannot list or manage principals, keys and budgets',
  );
  reply.code(error.statusCode).send(error.toBody());
}

/**
 * `/v1/admin/…`: principals and API keys, for operator keys only (docs/api.md, docs/security.md).
 * Every route authenticates like the Decision API and then requires the operator role.
 */
export async function keyAdminRoutes(
  app: FastifyInstance,
  options: { keys: KeyAdministration },
): Promise<void> {
  const { keys } = options;
  app.setValidatorCompiler(zodRequestValidator);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addHook('onRequest', requirePrincipal(renderAuthenticationFailure));
  app.addHook('onRequest', requireOperator);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    `${ADMIN_PREFIX}/principals`,
    {
      schema: {
        operationId: 'listPrincipals',
        summary: 'List the principals (operator keys only)',
        tags: ['admin'],
        security: [{ bearerAuth: [] }],
        response: { 200: z.object({ principals: z.array(principalSchema) }), ...errors },
      },
    },
    async () => ({ principals: (await keys.listPrincipals()).map(principalBody) }),
  );

  routes.get(
    `${ADMIN_PREFIX}/keys`,
    {
      schema: {
        operationId: 'listKeys',
        summary: 'List the API keys, revoked ones included, never their secrets (operator keys only)',
        tags: ['admin'],
        security: [{ bearerAuth: [] }],
        querystring: keysQuerySchema,
        response: {
          200: z.object({
            keys: z.array(keySchema),
            has_more: z.boolean(),
            next_after: z.string().nullable().describe('pass as `after` for the next page; null on the last'),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { limit, after } = request.query as z.infer<typeof keysQuerySchema>;
      // Oldest first, as stored; a page starts after the key named by `after`. Keys are few (an
      // operator makes each), so the page is cut from the store's list rather than in SQL.
      const all = await keys.list();
      let start = 0;
      if (after !== undefined) {
        const index = all.findIndex((record) => record.id === after);
        if (index < 0)
          throw ApiError.of(
            'invalid_request',
            `after names no API key (${JSON.stringify(after.slice(0, 64))}); pass the next_after of the previous page`,
            { param: 'after' },
          );
        start = index + 1;
      }
      const page = all.slice(start, start + limit);
      const hasMore = start + limit < all.length;
      return {
        keys: page.map(keyBody),
        has_more: hasMore,
        next_after: hasMore ? (page.at(-1)?.id ?? null) : null,
      };
    },
  );

  routes.post(
    `${ADMIN_PREFIX}/keys`,
    {
      schema: {
        operationId: 'createKey',
        summary: 'Create an API key; the answer holds the key, once (operator keys only)',
        tags: ['admin'],
        security: [{ bearerAuth: [] }],
        body: createKeyBodySchema,
        response: { 201: createdKeySchema, ...errors },
      },
    },
    async (request, reply) => {
      const created = await keys.create(request.body.principal, request.body.role);
      // The key is in this body and nowhere else: not cached by anything between.
      reply.code(201).header('cache-control', 'no-store');
      return { ...keyBody(created.record), key: created.key };
    },
  );

  routes.post(
    `${ADMIN_PREFIX}/keys/:id/revoke`,
    {
      schema: {
        operationId: 'revokeKey',
        summary:
          'Revoke an API key: refused from the next request, its open streams closed within a second (operator keys only)',
        tags: ['admin'],
        security: [{ bearerAuth: [] }],
        params: keyIdParamsSchema,
        response: { 200: keySchema, 404: errorBodySchema, 409: errorBodySchema, ...errors },
      },
    },
    async (request) => {
      const { id } = request.params;
      const outcome = await keys.revoke(id, { keepAnOperator: true });
      if (outcome === 'not-found')
        throw ApiError.of('not_found', `no API key with id ${id}`, { param: 'id' });
      if (outcome === 'last-operator')
        throw ApiError.of(
          'last_operator_key',
          `${id} is the last operator key that is not revoked; revoking it would leave nobody able to manage keys over the API. Create another operator key first (role "operator"), then revoke this one`,
          { param: 'id' },
        );
      // Revoking twice is not an error: the key is revoked either way, and the record says since when.
      const record = (await keys.list()).find((entry) => entry.id === id);
      if (!record) throw new Error(`the key ${id} vanished as it was revoked`);
      return keyBody(record);
    },
  );
}
