import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInProcessGateClient } from '@arbiter/engine/builtin';
import { resolveToolGateThresholds } from '@arbiter/tool-gate/contract';
import { createToolGateAnalyser } from '@arbiter/tool-gate-analysis';
import { UHP_VERSION, UHP_VERSION_HEADER } from '@arbiter/uhp/wire';
import multipart from '@fastify/multipart';
import type { Database } from 'better-sqlite3';
import type { FastifyError, FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { type AuthenticationFailureRenderer, requirePrincipal } from '../auth/auth-plugin.js';
import { billingMigrations } from '../billing/billing-migrations.js';
import { type BudgetPricing, PrepaidBudgets } from '../billing/prepaid-budgets.js';
import { installJsonBodyParser, JSON_TOO_DEEP_CODE, MAX_JSON_DEPTH } from '../json-body.js';
import { applyMigrations } from '../storage/database.js';
import type { SqlDatabase } from '../storage/sql-database.js';
import { SqliteDatabase } from '../storage/sqlite-database.js';
import { HarnessService } from './harness/harness-service.js';
import { registerBudgetRoutes } from './routes/budget-routes.js';
import { registerDiscoveryRoutes, SUPPORTED_VERSIONS } from './routes/discovery-routes.js';
import { registerFileRoutes } from './routes/file-routes.js';
import { registerGateAuditRoutes } from './routes/gate-audit-routes.js';
import { registerHarnessRoutes } from './routes/harness-routes.js';
import { registerResponseRoutes } from './routes/response-routes.js';
import { registerSessionRoutes } from './routes/session-routes.js';
import { registerSharedViewRoutes } from './routes/shared-view-routes.js';
import { uhpRequestValidator } from './routes/uhp-request-validator.js';
import { AcpRuntime, type AcpRuntimeOptions } from './runtime/acp/acp-runtime.js';
import { type AgentBaseConfigInput, createAgentRuntime } from './runtime/agent/agent-base-config.js';
import type { HarnessRuntime } from './runtime/harness-runtime.js';
import { OfflineAgentRuntime } from './runtime/offline/offline-runtime.js';
import { HarnessToolGate, type ToolGatingOptions } from './runtime/tool-gating/harness-tool-gate.js';
import { ProcessSandbox } from './sandbox/process-sandbox.js';
import type { SandboxConfigInput } from './sandbox/sandbox-config.js';
import { UhpDataLayout } from './storage/data-layout.js';
import { uhpMigrations } from './storage/uhp-migrations.js';
import { UhpStore } from './storage/uhp-store.js';
import { EventLog } from './streaming/event-log.js';
import { DEFAULT_STREAM_LIMITS, KEEP_ALIVE_MS, type StreamLimits } from './streaming/sse-writer.js';
import { systemTaskClock, type TaskClock } from './task-clock.js';
import { DEFAULT_LEASE_MS, TaskRunner } from './task-runner.js';
import { type TaskLimits, TaskService } from './task-service.js';
import { UhpFailure } from './uhp-error.js';
import type { UhpServices } from './uhp-services.js';
import type { WorkspaceToolLimits } from './workspace/workspace-tools.js';

export const DEFAULT_TASK_LIMITS: TaskLimits = {
  maxFileBytes: 25 * 1024 * 1024,
  sessionRetentionMs: 30 * 24 * 3600 * 1000,
  idempotencyRetentionMs: 48 * 3600 * 1000,
};

/** Default interval at which open streams re-check their credential. */
export const CREDENTIAL_CHECK_MS = 1000;

export interface UhpPluginOptions {
  /**
   * The server database: a better-sqlite3 connection (the plugin applies its migrations, idempotent)
   * or a `SqlDatabase` from `openStorage` (SQLite or PostgreSQL, already migrated).
   */
  readonly db: Database | SqlDatabase;
  readonly dataDir: string;
  /** Harness bases; defaults to the `agent` base on the offline model. */
  readonly runtimes?: readonly HarnessRuntime[];
  readonly offlineChunkDelayMs?: number;
  readonly limits?: Partial<TaskLimits>;
  readonly toolLimits?: WorkspaceToolLimits;
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
  /** The `agent` base's provider models and shell sandbox; without it the base serves the offline model only. */
  readonly agent?: AgentBaseConfigInput;
  /** Builds the harness bases with the server's gate; used instead of `runtimes` when given. */
  readonly createRuntimes?: (gate: HarnessToolGate) => readonly HarnessRuntime[];
  /** Operator-configured ACP agents of the `acp` base (served with the presets by default). */
  readonly acp?: Omit<AcpRuntimeOptions, 'gate'>;
  /**
   * The process sandbox every task program starts in, or its configuration (default: bubblewrap;
   * programs are refused when it cannot start). See docs/security.md.
   */
  readonly sandbox?: ProcessSandbox | SandboxConfigInput;
  /** How this node shares tasks with the other nodes of one PostgreSQL database (docs/deployment.md). */
  readonly cluster?: ClusterOptions;
  /** The time tasks live by (retention, `timeout_seconds`, the offline model's waits); injected by tests. */
  readonly clock?: TaskClock;
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

function findOnPath(binary: string): string | null {
  try {
    return execFileSync('/bin/sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
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
  // A better-sqlite3 connection (tests, embedders) gets the UHP and billing tables here; a
  // `SqlDatabase` from `openStorage` already holds every migration.
  let db: SqlDatabase;
  if ('dialect' in options.db) db = options.db;
  else {
    applyMigrations(options.db, [...uhpMigrations, ...billingMigrations]);
    db = new SqliteDatabase(options.db);
  }
  const limits = { ...DEFAULT_TASK_LIMITS, ...options.limits };
  const clock = options.clock ?? systemTaskClock;
  const store = new UhpStore(db);
  const nodeId = options.cluster?.nodeId ?? `node_${randomBytes(6).toString('hex')}`;
  const leaseMs = options.cluster?.leaseMs ?? DEFAULT_LEASE_MS;
  const events = new EventLog(store, {
    nodeId,
    pollMs: db.dialect === 'postgres' ? (options.cluster?.pollMs ?? 1000) : null,
  });
  const layout = new UhpDataLayout(options.dataDir);
  const budgets = new PrepaidBudgets(db, options.pricing);
  const sandbox =
    options.sandbox instanceof ProcessSandbox ? options.sandbox : await ProcessSandbox.open(options.sandbox);
  const runner = new TaskRunner(
    store,
    events,
    layout,
    sandbox,
    options.toolLimits,
    budgets,
    {
      nodeId,
      clock: options.cluster?.clock ?? Date.now,
      leaseMs,
    },
    clock,
  );
  // The operator's threshold overrides reach both the analysis's disposition and the composition.
  const thresholds = resolveToolGateThresholds(options.toolGating?.thresholds);
  const gate = new HarnessToolGate(
    createInProcessGateClient({ analyser: createToolGateAnalyser(thresholds) }),
    layout.gateAuditLog(),
    options.toolGating,
  );
  const runtimes = options.createRuntimes?.(gate) ??
    options.runtimes ?? [
      options.agent
        ? await createAgentRuntime(options.agent, gate, {
            offlineChunkDelayMs: options.offlineChunkDelayMs ?? 80,
          })
        : new OfflineAgentRuntime({
            chunkDelayMs: options.offlineChunkDelayMs ?? 80,
            gate,
            sleep: (ms, signal) => clock.sleep(ms, signal),
          }),
      new AcpRuntime({ ...options.acp, gate }),
    ];
  const harnesses = new HarnessService(store, new Map(runtimes.map((runtime) => [runtime.base, runtime])));
  const tasks = new TaskService(store, events, runner, layout, harnesses, limits, budgets, clock);
  let previewConverter: string | null | undefined;
  const services: UhpServices = {
    store,
    events,
    runner,
    tasks,
    harnesses,
    layout,
    limits,
    // Looked up on the first preview, not at start-up: finding it runs a shell.
    get previewConverter() {
      previewConverter ??=
        options.previewConverter === undefined ? findOnPath('soffice') : options.previewConverter;
      return previewConverter;
    },
    sandbox,
    keepAliveMs: options.keepAliveMs ?? KEEP_ALIVE_MS,
    streamLimits: { ...DEFAULT_STREAM_LIMITS, ...options.streamLimits },
    openStreams: new Set(),
    credentialCheckOf(request) {
      const principal = request.principal;
      const authenticator = app.authenticator;
      if (principal === null || authenticator.mode === 'none') return null;
      // The header the stream was opened with, asked again: a revoked key no longer maps to its principal.
      const authorization = request.headers.authorization;
      return () => {
        const result = authenticator.authenticate(authorization);
        return result.ok && result.principal.id === principal.id;
      };
    },
    baseUrlOf(request) {
      return `${request.protocol}://${request.host}${app.prefix}`;
    },
  };

  events.onNotifyError = (error) =>
    app.log.warn({ err: error }, 'UHP: other nodes were not told of an event (they find it by polling)');
  runner.onUnrecoverable = (responseId, error) =>
    app.log.error({ err: error, responseId }, 'UHP: a task could not be ended; the next start recovers it');
  const recovered = await runner.recoverInterrupted();
  if (recovered > 0) app.log.warn({ recovered }, 'UHP: ended tasks interrupted by an earlier stop');
  // Running tasks end (as interrupted) before streams close, so every open stream gets its terminal event.
  // Streams outlive the request that authenticated them: each one's credential is checked again on
  // this interval, and a stream whose key was revoked is closed.
  const credentialSweep = setInterval(() => {
    for (const stream of services.openStreams) void stream.recheckCredential();
  }, options.credentialCheckMs ?? CREDENTIAL_CHECK_MS);
  credentialSweep.unref();
  app.addHook('onClose', async () => clearInterval(credentialSweep));
  // Other nodes' events and cancellations, and this node's heartbeat: it renews the leases of the
  // tasks running here and ends the tasks of nodes that stopped renewing theirs. PostgreSQL only:
  // one process serves a SQLite database, and its start takes over every lease (recoverInterrupted).
  await events.listenAcrossNodes();
  const stopCancelListener = await runner.listenAcrossNodes();
  let beating = false;
  const beat = () => {
    if (beating) return;
    beating = true;
    runner
      .heartbeat()
      .then((recovered) => {
        if (recovered > 0)
          app.log.warn({ recovered }, 'UHP: ended tasks whose node stopped renewing their lease');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'UHP: the lease heartbeat failed'))
      .finally(() => {
        beating = false;
      });
  };
  const heartbeat =
    db.dialect === 'postgres'
      ? setInterval(beat, options.cluster?.heartbeatMs ?? Math.max(50, Math.floor(leaseMs / 5)))
      : undefined;
  heartbeat?.unref();
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    await stopCancelListener();
    await events.close();
  });
  app.addHook('preClose', async () => {
    await runner.shutdown();
    // Every task ended, so nothing a task started may outlive the server.
    sandbox.killAll();
    for (const stream of [...services.openStreams]) stream.end();
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
    const failure = UhpFailure.isInstance(error) ? error : fromFrameworkError(error, request.isMultipart());
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
    if (status === 415)
      return new UhpFailure('arbiter_unsupported_media_type', 'Send the body as application/json.');
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
    registerDiscoveryRoutes(open);
    registerSharedViewRoutes(open, services);
  });
  await app.register(async (owned) => {
    owned.addHook('onRequest', requirePrincipal(renderAuthenticationFailure));
    registerHarnessRoutes(owned, services);
    registerResponseRoutes(owned, services);
    registerSessionRoutes(owned, services);
    registerFileRoutes(owned, services);
    registerGateAuditRoutes(owned, services);
    registerBudgetRoutes(owned, services, budgets);
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
