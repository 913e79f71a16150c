import { type AuthenticationFailureRenderer, requirePrincipal } from '@arbiter/auth';
import type { Clock } from '@arbiter/decision';
import {
  installJsonBodyParser,
  JSON_BODY_REFUSED_CODE,
  JSON_CHARSET_CODE,
  JSON_TOO_DEEP_CODE,
  MAX_JSON_DEPTH,
} from '@arbiter/json-body';
import { NulInTextError, type SqlDatabase } from '@arbiter/storage';
import { UHP_VERSION, UHP_VERSION_HEADER } from '@arbiter/uhp/wire';
import multipart from '@fastify/multipart';
import type { Database } from 'better-sqlite3';
import type { FastifyError, FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { BudgetPricing } from '../billing/prepaid-budgets.js';
import type { ArtifactLimits } from './artifact-collection.js';
import { budgetRoutes } from './routes/budget-routes.js';
import { discoveryRoutes, SUPPORTED_VERSIONS } from './routes/discovery-routes.js';
import { fileRoutes } from './routes/file-routes.js';
import { gateAuditRoutes } from './routes/gate-audit-routes.js';
import { harnessRoutes } from './routes/harness-routes.js';
import { responseRoutes } from './routes/response-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { sharedViewRoutes } from './routes/shared-view-routes.js';
import { uhpRequestValidator } from './routes/uhp-request-validator.js';
import type { AcpRuntimeOptions } from './runtime/acp/acp-runtime.js';
import type { AgentBaseConfigInput } from './runtime/agent/agent-base-config.js';
import type { HarnessRuntime } from './runtime/harness-runtime.js';
import type { HarnessToolGate, ToolGatingOptions } from './runtime/tool-gating/harness-tool-gate.js';
import type { ProcessSandbox } from './sandbox/process-sandbox.js';
import type { SandboxConfigInput } from './sandbox/sandbox-config.js';
import { uhpStoragePlugin } from './storage/uhp-storage-plugin.js';
import type { StreamLimits } from './streaming/sse-writer.js';
import { uhpStreamsPlugin } from './streaming/uhp-streams-plugin.js';
import type { TaskLimits } from './task-service.js';
import { UhpFailure } from './uhp-error.js';
import { uhpTasksPlugin } from './uhp-tasks-plugin.js';
import type { WorkspaceToolLimits } from './workspace/workspace-tools.js';

export const DEFAULT_TASK_LIMITS: TaskLimits = {
  maxFileBytes: 25 * 1024 * 1024,
  sessionRetentionMs: 30 * 24 * 3600 * 1000,
  idempotencyRetentionMs: 48 * 3600 * 1000,
};

export interface UhpPluginOptions {
  /**
   * The server database: a better-sqlite3 connection (the plugin applies its migrations, idempotent)
   * or a `SqlDatabase` from `openStorage` (SQLite or PostgreSQL, already migrated).
   */
  readonly db: Database | SqlDatabase;
  readonly dataDir: string;
  /** The default `agent` base's pause between the offline model's chunks (ms); default 80. */
  readonly offlineChunkDelayMs?: number;
  readonly limits?: Partial<TaskLimits>;
  readonly toolLimits?: WorkspaceToolLimits;
  /** Files and bytes a turn and a session may keep as artifacts (docs/uhp-server.md, "Limits"). */
  readonly artifactLimits?: Partial<ArtifactLimits>;
  /** Path of `soffice`; `undefined` looks it up on PATH, `null` disables previews. */
  readonly previewConverter?: string | null;
  readonly keepAliveMs?: number;
  /** How often open streams re-check their credential (a revoked key closes them); default 1 s. */
  readonly credentialCheckMs?: number;
  /** Per-consumer limits of SSE streams and harness feeds (slow consumers are dropped). */
  readonly streamLimits?: Partial<StreamLimits>;
  /** Output prices for prepaid budgets (principals with a balance); unpriced models cost nothing. */
  readonly pricing?: BudgetPricing;
  /** How harness tool calls are gated (static policy, asks); every verdict goes to `uhp/gate-audit.jsonl`. */
  readonly toolGating?: ToolGatingOptions;
  /**
   * The one way to choose the harness bases: builds them with the server's tool gate, which every
   * base's tool calls must pass (a fixed list is `() => list`). Absent, the server serves its own
   * two bases, `agent` and `acp`, configured by `agent` and `acp` below; given, it replaces both, so
   * it may not be given with `agent` or `acp` (the plugin refuses to start rather than ignore them).
   */
  readonly createRuntimes?: (gate: HarnessToolGate) => readonly HarnessRuntime[];
  /** The default `agent` base's provider models and shell sandbox; without it the base serves the offline model only. */
  readonly agent?: AgentBaseConfigInput;
  /** Operator-configured ACP agents of the default `acp` base (served with the presets by default). */
  readonly acp?: Omit<AcpRuntimeOptions, 'gate'>;
  /**
   * The process sandbox every task program starts in, or its configuration (default: bubblewrap;
   * programs are refused when it cannot start). See docs/security.md.
   */
  readonly sandbox?: ProcessSandbox | SandboxConfigInput;
  /** How this node shares tasks with the other nodes of one PostgreSQL database (docs/deployment.md). */
  readonly cluster?: ClusterOptions;
  /** The time tasks live by (retention, `timeout_seconds`, the offline model's waits); injected by tests. */
  readonly clock?: Clock;
}

export interface ClusterOptions {
  /** Names this process among the nodes; a random id by default. */
  readonly nodeId?: string;
  /** The lease clock (milliseconds since the epoch); injected by tests. */
  readonly clock?: () => number;
  /** A task whose node has not renewed its lease for this long is taken over. Default 5000. */
  readonly leaseMs?: number;
  /** How often leases are renewed and expired ones looked for. Default a fifth of `leaseMs`. */
  readonly heartbeatMs?: number;
  /** How often a waiting stream re-reads the log on PostgreSQL, in case a notification was lost. Default 1000. */
  readonly pollMs?: number;
}

/** A refused credential in UHP's envelope, with `WWW-Authenticate: Bearer` as for the Decision API. */
const renderAuthenticationFailure: AuthenticationFailureRenderer = (failure, _request, reply) => {
  const refusal = new UhpFailure(
    failure.code,
    failure.code === 'missing_credential'
      ? 'This endpoint needs a bearer credential.'
      : 'The credential is not valid.',
  );
  return reply.code(refusal.statusCode).header('www-authenticate', 'Bearer').send(refusal.toEnvelope());
};

/**
 * The UHP 2026-08-11 API as one encapsulated Fastify plugin; register it with `prefix: '/api/harness'`
 * after `authPlugin`, whose authenticator it uses (`requirePrincipal`, `request.principal`). Version
 * negotiation, the UHP validator and the error envelope are hooks of this plugin only.
 */
async function uhpHarness(app: FastifyInstance, options: UhpPluginOptions): Promise<void> {
  const limits = { ...DEFAULT_TASK_LIMITS, ...options.limits };
  // The services, each a plugin that decorates this instance and names what it needs.
  await app.register(uhpStoragePlugin, {
    db: options.db,
    dataDir: options.dataDir,
    pricing: options.pricing,
  });
  await app.register(uhpTasksPlugin, { ...options, limits });
  await app.register(uhpStreamsPlugin, {
    keepAliveMs: options.keepAliveMs,
    credentialCheckMs: options.credentialCheckMs,
    streamLimits: options.streamLimits,
  });

  installJsonBodyParser(app);
  await app.register(multipart, { limits: { fileSize: limits.maxFileBytes, files: 1, fields: 10 } });
  // Route schemas validate into UHP's envelope; replies are serialised as plain JSON (the response
  // schemas document the routes, as the Decision API's do).
  app.setValidatorCompiler(uhpRequestValidator);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // Callback style, as `requirePrincipal`: no promise per request for a header check.
  app.addHook('onRequest', (request, reply, done) => {
    const asked = request.headers['uhp-version'];
    reply.header(UHP_VERSION_HEADER, UHP_VERSION);
    if (asked !== undefined && !(SUPPORTED_VERSIONS as readonly string[]).includes(String(asked))) {
      done(
        new UhpFailure(
          'unsupported_protocol_version',
          'This server does not support the requested UHP-Version.',
          { param: 'UHP-Version', detail: { supported: [...SUPPORTED_VERSIONS] } },
        ),
      );
      return;
    }
    done();
  });

  // The one place where a failure becomes HTTP: a service's `UhpFailure` gets its status and type
  // from the registry; Fastify's and the multipart parser's errors are mapped to registered codes.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const failure = UhpFailure.isInstance(error)
      ? error
      : NulInTextError.isInstance(error)
        ? new UhpFailure(
            'invalid_input',
            'A text of the request (an input, a name, an id) contains a NUL character (U+0000), which the server does not store.',
          )
        : fromFrameworkError(error, request.isMultipart());
    if (failure.code === 'arbiter_internal_error') request.log.error({ err: error }, 'UHP request failed');
    return reply.status(failure.statusCode).send(failure.toEnvelope());
  });

  app.setNotFoundHandler((_request, reply) => {
    const error = new UhpFailure('arbiter_route_not_found', 'No UHP endpoint has this method and path.');
    return reply.status(error.statusCode).send(error.toEnvelope());
  });

  function fromFrameworkError(error: FastifyError, multipart: boolean): UhpFailure {
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_REQ_FILE_TOO_LARGE' || (status === 413 && multipart))
      return new UhpFailure('file_too_large', `A file may be at most ${limits.maxFileBytes} bytes.`, {
        param: 'file',
        detail: { max_bytes: limits.maxFileBytes },
      });
    if (status === 413) return new UhpFailure('arbiter_request_too_large', 'The request body is too large.');
    if (error.code === JSON_CHARSET_CODE)
      return new UhpFailure('arbiter_unsupported_media_type', 'Send the body as application/json in UTF-8.');
    if (status === 415)
      return new UhpFailure('arbiter_unsupported_media_type', 'Send the body as application/json.');
    if (error.code === JSON_BODY_REFUSED_CODE)
      // The parser's message says which rule (not UTF-8, a lone surrogate, a repeated name), never a value.
      return new UhpFailure(
        'invalid_input',
        `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`,
      );
    if (error.code === JSON_TOO_DEEP_CODE)
      return new UhpFailure(
        'invalid_input',
        `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`,
        {
          detail: { max_depth: MAX_JSON_DEPTH },
        },
      );
    if (status >= 400 && status < 500)
      return new UhpFailure(
        'invalid_input',
        error.code?.includes('JSON') || error instanceof SyntaxError
          ? 'The body is not valid JSON.'
          : 'The request is malformed.',
      );
    return new UhpFailure('arbiter_internal_error', 'The server failed to handle this request.');
  }

  // Discovery and shared views are public; every other route runs after `requirePrincipal`, so its
  // handler reads `request.principal`.
  await app.register(async (open) => {
    await open.register(discoveryRoutes);
    await open.register(sharedViewRoutes);
  });
  await app.register(async (owned) => {
    owned.addHook('onRequest', requirePrincipal(renderAuthenticationFailure));
    await owned.register(harnessRoutes);
    await owned.register(responseRoutes);
    await owned.register(sessionRoutes);
    await owned.register(fileRoutes, { previewConverter: options.previewConverter });
    await owned.register(gateAuditRoutes);
    await owned.register(budgetRoutes);
  });
}

/** The UHP plugin, which needs the app's authenticator (`authPlugin`) registered before it. */
export const uhpPlugin = fastifyPlugin(uhpHarness, {
  name: 'arbiter-uhp',
  fastify: '5.x',
  dependencies: ['arbiter-auth'],
  decorators: { fastify: ['authenticator'], request: ['principal'] },
  // Its hooks, error handler and validator stay inside its prefix.
  encapsulate: true,
});
