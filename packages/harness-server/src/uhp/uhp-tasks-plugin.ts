import { randomBytes } from 'node:crypto';
import { type Clock, sleepOn, systemClock } from '@arbiter/decision';
import { createInProcessGateClient } from '@arbiter/engine/builtin';
import { resolveToolGateThresholds } from '@arbiter/tool-gate/contract';
import { createToolGateAnalyser } from '@arbiter/tool-gate-analysis';
import fastifyPlugin from 'fastify-plugin';
import { DEFAULT_ARTIFACT_LIMITS } from './artifact-collection.js';
import { HarnessService } from './harness/harness-service.js';
import { AcpRuntime } from './runtime/acp/acp-runtime.js';
import { createAgentRuntime } from './runtime/agent/agent-base-config.js';
import type { HarnessRuntime } from './runtime/harness-runtime.js';
import { OfflineAgentRuntime } from './runtime/offline/offline-runtime.js';
import { HarnessToolGate } from './runtime/tool-gating/harness-tool-gate.js';
import { secondOpinionEngine } from './runtime/tool-gating/second-opinion-engine.js';
import { ProcessSandbox } from './sandbox/process-sandbox.js';
import { EventLog } from './streaming/event-log.js';
import { DEFAULT_LEASE_MS, TaskRunner } from './task-runner.js';
import { type TaskLimits, TaskService } from './task-service.js';
import type { UhpPluginOptions } from './uhp-plugin.js';

export type UhpTasksOptions = Pick<
  UhpPluginOptions,
  | 'createRuntimes'
  | 'agent'
  | 'acp'
  | 'offlineChunkDelayMs'
  | 'toolLimits'
  | 'artifactLimits'
  | 'toolGating'
  | 'sandbox'
  | 'cluster'
  | 'clock'
> & { readonly limits: TaskLimits };

/**
 * The server's own harness bases, configured by `agent` and `acp`: the `agent` base (on the offline
 * model unless provider models are configured) and the `acp` base.
 */
async function defaultRuntimes(
  options: UhpTasksOptions,
  gate: HarnessToolGate,
  clock: Clock,
): Promise<readonly HarnessRuntime[]> {
  const chunkDelayMs = options.offlineChunkDelayMs ?? 80;
  return [
    options.agent
      ? await createAgentRuntime(options.agent, gate, { offlineChunkDelayMs: chunkDelayMs })
      : new OfflineAgentRuntime({ chunkDelayMs, gate, sleep: (ms, signal) => sleepOn(clock, ms, signal) }),
    new AcpRuntime({ ...options.acp, gate }),
  ];
}

/**
 * Running tasks: the process sandbox, the event log, the task runner with its leases, the tool gate,
 * the harness bases and the services over them (`uhpSandbox`, `uhpEvents`, `uhpRunner`,
 * `uhpHarnesses`, `uhpTasks`). Owns their lifecycle: interrupted tasks are ended at start, running
 * ones at close, and on PostgreSQL the heartbeat renews this node's leases.
 */
export const uhpTasksPlugin = fastifyPlugin<UhpTasksOptions>(
  async (app, options) => {
    const { uhpDatabase: db, uhpStore: store, uhpLayout: layout, uhpBudgets: budgets } = app;
    if (options.createRuntimes && (options.agent || options.acp))
      throw new Error(
        'uhpPlugin: createRuntimes replaces the default agent and acp bases, so its agent and acp options would be ignored; configure those bases in the runtimes createRuntimes builds',
      );
    const clock = options.clock ?? systemClock;
    const nodeId = options.cluster?.nodeId ?? `node_${randomBytes(6).toString('hex')}`;
    const leaseMs = options.cluster?.leaseMs ?? DEFAULT_LEASE_MS;
    const events = new EventLog(store, {
      nodeId,
      pollMs: db.dialect === 'postgres' ? (options.cluster?.pollMs ?? 1000) : null,
    });
    const sandbox =
      options.sandbox instanceof ProcessSandbox
        ? options.sandbox
        : await ProcessSandbox.open(options.sandbox);
    const runner = new TaskRunner({
      store,
      events,
      layout,
      sandbox,
      toolLimits: options.toolLimits,
      budgets,
      lease: { nodeId, clock: options.cluster?.clock ?? Date.now, leaseMs },
      clock,
      // The disk quota is one setting of the task limits, read by both the runner (a turn stores
      // nothing past it) and the task service (a principal over it starts nothing).
      artifactLimits: {
        ...DEFAULT_ARTIFACT_LIMITS,
        maxDiskBytesPerPrincipal: options.limits.maxDiskBytesPerPrincipal ?? null,
        maxFilesPerPrincipal: options.limits.maxFilesPerPrincipal ?? null,
        ...options.artifactLimits,
      },
    });
    // The operator's threshold overrides reach both the analysis's disposition and the composition.
    const thresholds = resolveToolGateThresholds(options.toolGating?.thresholds);
    const gate = new HarnessToolGate(
      createInProcessGateClient({
        analyser: createToolGateAnalyser(thresholds, {
          secondOpinion: secondOpinionEngine(options.toolGating?.secondOpinion),
        }),
      }),
      layout.gateAuditLog(),
      options.toolGating,
    );
    const runtimes = options.createRuntimes
      ? options.createRuntimes(gate)
      : await defaultRuntimes(options, gate, clock);
    const harnesses = new HarnessService(store, new Map(runtimes.map((runtime) => [runtime.base, runtime])));
    const tasks = new TaskService({
      store,
      events,
      runner,
      layout,
      harnesses,
      limits: options.limits,
      budgets,
      clock,
    });
    app.decorate('uhpSandbox', sandbox);
    app.decorate('uhpEvents', events);
    app.decorate('uhpRunner', runner);
    app.decorate('uhpHarnesses', harnesses);
    app.decorate('uhpTasks', tasks);

    events.onNotifyError = (error) =>
      app.log.warn({ err: error }, 'UHP: other nodes were not told of an event (they find it by polling)');
    runner.onUnrecoverable = (responseId, error) =>
      app.log.error({ err: error, responseId }, 'UHP: a task could not be ended; the next start recovers it');
    const recovered = await runner.recoverInterrupted();
    if (recovered > 0) app.log.warn({ recovered }, 'UHP: ended tasks interrupted by an earlier stop');
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
    // Running tasks end (as interrupted) before streams close (`uhpStreamsPlugin`, registered after
    // this one, so its preClose runs later), so every open stream gets its terminal event.
    app.addHook('preClose', async () => {
      await runner.shutdown();
      // Every task ended, so nothing a task started may outlive the server.
      sandbox.killAll();
    });
  },
  {
    name: 'arbiter-uhp-tasks',
    fastify: '5.x',
    dependencies: ['arbiter-uhp-storage'],
    decorators: { fastify: ['uhpDatabase', 'uhpStore', 'uhpLayout', 'uhpBudgets'] },
  },
);
