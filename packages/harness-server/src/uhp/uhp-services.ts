import type { SqlDatabase } from '@arbiter/storage';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PrepaidBudgets } from '../billing/prepaid-budgets.js';
import type { HarnessService } from './harness/harness-service.js';
import type { ProcessSandbox } from './sandbox/process-sandbox.js';
import type { UhpDataLayout } from './storage/data-layout.js';
import type { UhpStore } from './storage/uhp-store.js';
import type { EventLog } from './streaming/event-log.js';
import type { SseWriter, StreamLimits } from './streaming/sse-writer.js';
import type { TaskRunner } from './task-runner.js';
import type { TaskService } from './task-service.js';

/** Opens server-sent event streams with the server's guards (see `uhpStreamsPlugin`). */
export interface UhpStreams {
  readonly limits: StreamLimits;
  /** Takes over `reply` as an event stream: keep-alives, back-pressure, credential re-check, shutdown. */
  open(request: FastifyRequest, reply: FastifyReply): SseWriter;
}

/**
 * The UHP services, as decorations of the UHP plugin's Fastify instance. Each is set by the plugin
 * that owns it, which names the plugins it needs as `fastify-plugin` dependencies, and each route
 * family declares the decorations it reads; a missing one fails at start, naming it.
 *
 * - `arbiter-uhp-storage` (`uhpStoragePlugin`): `uhpDatabase`, `uhpStore`, `uhpLayout`, `uhpBudgets`
 * - `arbiter-uhp-tasks` (`uhpTasksPlugin`): `uhpSandbox`, `uhpEvents`, `uhpRunner`, `uhpHarnesses`, `uhpTasks`
 * - `arbiter-uhp-streams` (`uhpStreamsPlugin`): `uhpStreams`
 */
declare module 'fastify' {
  interface FastifyInstance {
    readonly uhpDatabase: SqlDatabase;
    readonly uhpStore: UhpStore;
    readonly uhpLayout: UhpDataLayout;
    readonly uhpBudgets: PrepaidBudgets;
    /** The process sandbox every program started for a tenant runs in (task programs, previews). */
    readonly uhpSandbox: ProcessSandbox;
    readonly uhpEvents: EventLog;
    readonly uhpRunner: TaskRunner;
    readonly uhpHarnesses: HarnessService;
    readonly uhpTasks: TaskService;
    readonly uhpStreams: UhpStreams;
  }
}
