import type { Authenticator } from '@arbiter/auth';
import { authPlugin } from '@arbiter/auth';
import type { ModelCatalog } from '@arbiter/engine/catalog';
import { type UhpPluginOptions, uhpPlugin } from '@arbiter/harness-server';
import { installJsonBodyParser } from '@arbiter/json-body';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { apiReferencePlugin } from './api-reference/api-reference-plugin.js';
import { type KeyAdministration, keyAdminRoutes } from './auth/key-admin-routes.js';
import { loopbackOnlyHook } from './auth/loopback-only.js';
import { type BudgetAdministration, budgetAdminRoutes } from './billing/budget-admin-routes.js';
import { connectionServerOptions, endUnusedConnectionsOnClose } from './connection-limits.js';
import { consolePlugin } from './console/console-plugin.js';
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from './decision/decision-limits.js';
import { decisionRoutes } from './decision/decision-routes.js';
import { installErrorHandling } from './errors/error-handling.js';
import { clientErrorHandler, frameworkErrors } from './errors/http-layer-errors.js';
import { type TeamGateRoutesOptions, teamGateRoutes } from './gate/team-gate-routes.js';
import { healthRoutes } from './health-routes.js';
import { homePage } from './home-page.js';
import { redactingLogMethod, redactingSerializers } from './log-redaction.js';
import { COMPATIBLE_REQUEST_ID_HEADER, REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import { zodSchemaCompilers } from './schema-compilers.js';

export const SERVER_VERSION = '0.1.0';

export interface AppOptions {
  readonly catalog: ModelCatalog;
  readonly authenticator: Authenticator;
  readonly limits?: Partial<ServerLimits>;
  /** Pino options or `false` (the default, for tests). Authorization headers are always redacted. */
  readonly logger?: boolean | Exclude<FastifyServerOptions['logger'], undefined>;
  /** Serve the UHP API under `/api/harness` with these options; authentication is the app's. */
  readonly harness?: UhpPluginOptions;
  /** The console at `/console`: `false` leaves it out; `root` names another build. Default on. */
  readonly console?: false | { readonly root?: string };
  /** The key store the authenticator reads: serves the operator's `/v1/admin/…` routes when given. */
  readonly keyAdmin?: KeyAdministration;
  /** Every principal's prepaid budget: serves the operator's `/v1/admin/budgets…` routes, with `keyAdmin`. */
  readonly budgetAdmin?: BudgetAdministration;
  /** The team gate's store and settings: serves `/v1/gate/reports`, `/policy`, `/records` and the rest when given. */
  readonly teamGate?: TeamGateRoutesOptions;
  /** What `GET /readyz` asks of the database (`SELECT 1`); without it readiness checks nothing more. */
  readonly checkDatabase?: () => Promise<unknown>;
}

const REDACTED_PATHS = ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'];

function loggerOptions(logger: AppOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === undefined || logger === false) return false;
  const base = logger === true ? {} : logger;
  return {
    ...base,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { ...base.serializers, ...redactingSerializers },
    hooks: { ...base.hooks, logMethod: redactingLogMethod },
  };
}

/**
 * The Arbiter HTTP application, built from plugins and not listening: tests drive it with
 * `inject`, `startServer` listens. Routes: the Decision API (`/v1/…`), `/health`, `/healthz`, `/readyz`,
 * `/openapi.json`, `/docs`, the operator's `/v1/admin/…` (with `keyAdmin`; budgets with `budgetAdmin` too), the console (`/console`), and the UHP API under `/api/harness` when `harness` is given.
 *
 * @example
 * const app = await buildApp({ catalog: new ModelCatalog(), authenticator });
 * const response = await app.inject({ method: 'GET', url: '/health' });
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const app = Fastify({
    logger: loggerOptions(options.logger),
    bodyLimit: limits.maxBodyBytes,
    ...connectionServerOptions(limits),
    genReqId: requestIdOf,
    return503OnClosing: true,
    schemaController: zodSchemaCompilers,
    // The HTTP layer's own refusals (a bad percent-encoding, headers or a URL over Node's limit)
    // in the documented envelope too.
    frameworkErrors,
    clientErrorHandler,
  });
  endUnusedConnectionsOnClose(app);
  // Callback style: an async hook would cost every request a promise for two header writes.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    reply.header(COMPATIBLE_REQUEST_ID_HEADER, request.id);
    done();
  });
  if (options.authenticator.mode === 'none') app.addHook('onRequest', loopbackOnlyHook);
  // A refused credential ends the connection: the body it announced is never read, and a client
  // that keeps sending it would otherwise hold the socket until the request timeout.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode === 401) reply.header('connection', 'close');
    done(null, payload);
  });
  installErrorHandling(app);
  installJsonBodyParser(app);
  await app.register(authPlugin, { authenticator: options.authenticator });
  await app.register(apiReferencePlugin, { version: SERVER_VERSION });
  await app.register(healthRoutes, options.checkDatabase ? { checkDatabase: options.checkDatabase } : {});
  await app.register(homePage, { version: SERVER_VERSION, harness: options.harness !== undefined });
  await app.register(decisionRoutes, { catalog: options.catalog, limits });
  if (options.teamGate)
    await app.register(teamGateRoutes, { requestsPerMinute: limits.requestsPerMinute, ...options.teamGate });
  if (options.keyAdmin) await app.register(keyAdminRoutes, { keys: options.keyAdmin });
  if (options.keyAdmin && options.budgetAdmin)
    await app.register(budgetAdminRoutes, { budgets: options.budgetAdmin, keys: options.keyAdmin });
  if (options.console !== false) await app.register(consolePlugin, options.console ?? {});
  // Authentication is the app's (`authPlugin`); UHP renders its refusals in its own envelope.
  if (options.harness) await app.register(uhpPlugin, { ...options.harness, prefix: '/api/harness' });
  return app;
}
