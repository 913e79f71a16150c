import { type AuthenticationFailureRenderer, requirePrincipal } from '@arbiter/auth';
import {
  type DecisionRequest,
  decisionRequestSchema,
  decisionResponseSchema,
  EngineError,
  errorBodySchema,
  findAnswerMismatch,
  resolveDocumentAlias,
} from '@arbiter/decision';
import { estimateContextTokens, type ModelCatalog } from '@arbiter/engine/catalog';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../errors/api-error.js';
import { gateCheckRoutes } from '../gate/gate-check-routes.js';
import { connectionSignal } from './connection-signal.js';
import type { ServerLimits } from './decision-limits.js';
import { limitRequestsPerPrincipal } from './principal-rate-limit.js';
import { zodRequestValidator } from './zod-request-validator.js';

export interface DecisionRoutesOptions {
  readonly catalog: ModelCatalog;
  readonly limits: ServerLimits;
}

const modelListSchema = z.object({
  models: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      release_date: z.string(),
      kind: z
        .enum(['pin', 'alias'])
        .describe('Arbiter: `pin` for a concrete model, `alias` for a name of one'),
      target: z.string().describe('Arbiter: the pin this name answers with'),
      engine: z.string().describe('Arbiter: the engine kind serving the model'),
    }),
  ),
});

const errorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
  429: errorBodySchema,
  500: errorBodySchema,
  502: errorBodySchema,
  503: errorBodySchema,
  504: errorBodySchema,
};

/** A refused credential in the Decision API's envelope: 401 with `WWW-Authenticate: Bearer`. */
export const renderAuthenticationFailure: AuthenticationFailureRenderer = (failure, _request, reply) => {
  const error = ApiError.of(failure.code, failure.message);
  return reply.code(error.statusCode).header('www-authenticate', 'Bearer').send(error.toBody());
};

/**
 * The Decision API: `POST /v1/decision` and `POST /v1/systemone` (the same handler, for clients of
 * the public format) and `GET /v1/models`. Every route needs a principal.
 */
export async function decisionRoutes(app: FastifyInstance, options: DecisionRoutesOptions): Promise<void> {
  const { catalog, limits } = options;
  // The Decision API speaks JSON only; Fastify would otherwise accept text/plain bodies as strings.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(zodRequestValidator);
  // Response schemas document the routes (OpenAPI) but are not re-checked on every reply: the bodies
  // are built here from engine answers that `findAnswerMismatch` has checked, and a zod pass over
  // them cost more than the built-in engine itself (see docs/benchmarks.md).
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addHook('onRequest', requirePrincipal(renderAuthenticationFailure));
  if (limits.requestsPerMinute !== null)
    await limitRequestsPerPrincipal(app, limits.requestsPerMinute, 'requests');
  // The specification names the state `document`: read it as the state before validation.
  app.addHook('preValidation', (request, _reply, done) => {
    const alias = resolveDocumentAlias(request.body);
    if (!alias.ok) {
      done(ApiError.of('invalid_request', `document: ${alias.message}`, { param: 'document' }));
      return;
    }
    request.body = alias.body;
    done();
  });
  const routes = app.withTypeProvider<ZodTypeProvider>();

  async function decide(body: DecisionRequest, request: FastifyRequest) {
    const { pin, engine } = catalog.resolve(body.model);
    const tokens = estimateContextTokens(body.state, body.questions);
    if (tokens > limits.maxContextTokens) {
      throw ApiError.of(
        'context_too_long',
        `the state plus the longest question is about ${tokens} tokens (UTF-8 bytes / 3); the limit is ${limits.maxContextTokens}`,
        { param: 'state', detail: { estimated_tokens: tokens, limit_tokens: limits.maxContextTokens } },
      );
    }
    const signal = connectionSignal(request.raw.socket);
    // Engines that answer synchronously do not read the signal, so a gone client is checked here.
    signal.throwIfAborted();
    const result = await engine.evaluate({
      state: body.state,
      questions: body.questions,
      pack: body.pack,
      signal,
    });
    const mismatch = findAnswerMismatch(body.questions, result.answers);
    if (mismatch)
      throw new EngineError({ code: 'engine_error', message: `engine ${engine.engineId}: ${mismatch}` });
    return { model: pin, answers: result.answers, usage: result.usage };
  }

  for (const url of ['/v1/decision', '/v1/systemone']) {
    routes.post(
      url,
      {
        schema: {
          operationId: url === '/v1/decision' ? 'decide' : 'systemOne',
          summary:
            url === '/v1/decision'
              ? 'Answer typed questions about a state'
              : 'Answer typed questions about a state (System One compatible path)',
          tags: ['decision'],
          security: [{ bearerAuth: [] }],
          body: decisionRequestSchema,
          response: { 200: decisionResponseSchema, ...errorResponses },
        },
      },
      (request) => decide(request.body, request),
    );
  }

  routes.get(
    '/v1/models',
    {
      schema: {
        operationId: 'listModels',
        summary: 'List the models (pins and aliases) of the catalog',
        tags: ['models'],
        security: [{ bearerAuth: [] }],
        response: { 200: modelListSchema, 401: errorBodySchema },
      },
    },
    async () => ({ models: catalog.list() }),
  );

  // In this scope, so a gate check is authenticated, rate-limited and counted like a decision.
  await app.register(gateCheckRoutes, { catalog });
}
