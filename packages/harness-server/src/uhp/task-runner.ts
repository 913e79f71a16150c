import { type Clock, systemClock } from '@arbiter/decision';
import type { Harness, UhpErrorCode, UhpResponse, UhpError as WireError } from '@arbiter/uhp/wire';

/** A response's error: its code is registered, like every code the server emits. */
type UhpError = WireError & { readonly code: UhpErrorCode };

import type { PrepaidBudgets } from '../billing/prepaid-budgets.js';
import { type ArtifactLimits, collectArtifacts, DEFAULT_ARTIFACT_LIMITS } from './artifact-collection.js';
import { type QuotaOverrun, watchQuotas } from './quota-watch.js';
import { type HarnessRuntime, HarnessRuntimeError, type HarnessTurn } from './runtime/harness-runtime.js';
import type { ProcessSandbox } from './sandbox/process-sandbox.js';
import type { UhpDataLayout } from './storage/data-layout.js';
import type { StoredResponse, UhpStore } from './storage/uhp-store.js';
import type { EventLog, EventOwner, NewEvent } from './streaming/event-log.js';
import { ResponseAssembler } from './streaming/response-assembler.js';
import { type CitedFile, TurnOutput } from './streaming/turn-output.js';
import { UntrustedEntryError } from './workspace/directory-handle.js';
import { Workspace, WorkspacePathError } from './workspace/workspace.js';
import {
  DEFAULT_WORKSPACE_TOOL_LIMITS,
  type WorkspaceToolLimits,
  WorkspaceTools,
} from './workspace/workspace-tools.js';

/** How long a cancel waits for the task's terminal state before answering what it has (docs/uhp-server.md). */
const CANCEL_WAIT_MS = 2_500;

/** A task accepted and recorded (its `response.created` is in the log), ready to execute. */
export interface PreparedTask {
  readonly initial: UhpResponse;
  readonly owner: EventOwner;
  readonly containerId: string;
  readonly harness: Harness;
  readonly runtime: HarnessRuntime;
  readonly turn: Omit<HarnessTurn, 'signal' | 'tools' | 'harness' | 'sessionId' | 'responseId'>;
  readonly maxStep: number | null;
  readonly timeoutSeconds: number | null;
  readonly store: boolean;
  /** Absolute base of download URLs in citations (`http://host/api/harness`). */
  readonly baseUrl: string;
}

type StopReason = 'cancelled' | 'timeout' | 'max_step' | 'shutdown' | 'quota';

/** The channel on which a node asks the node running a task (or a session's tasks) to cancel it. */
export const CANCEL_CHANNEL = 'arbiter_cancel';

/** How the runner shares work with other nodes of one database (docs/deployment.md). */
export interface TaskLeaseOptions {
  /** This process among the nodes; unique per process. */
  readonly nodeId: string;
  /** Milliseconds since the epoch; injected so tests move time instead of waiting. */
  readonly clock: () => number;
  /** How long a task's lease lasts without a heartbeat; another node takes it over after that. */
  readonly leaseMs: number;
}

export const DEFAULT_LEASE_MS = 5000;

/** The task was taken over by another node while this one was presumed dead: it writes nothing more. */
class LeaseLost extends Error {
  constructor(responseId: string) {
    super(`the lease of ${responseId} is held by another node`);
  }
}

interface RunningTask {
  readonly controller: AbortController;
  readonly sessionId: string;
  readonly done: Promise<void>;
}

const INTERRUPTED: UhpError = {
  type: 'server_error',
  code: 'arbiter_interrupted',
  message: 'The server stopped while this task was running; the output produced until then is kept.',
  param: null,
  detail: null,
};

/** The error of a response the server itself could not run or finish; no internal detail leaks. */
function serverFailure(error: unknown): UhpError {
  return {
    type: 'server_error',
    code: 'arbiter_task_failed',
    message:
      error instanceof UntrustedEntryError || error instanceof WorkspacePathError
        ? `The server refused to use the workspace: ${error.message}`
        : 'The server failed while preparing or finishing this task; the session can take new tasks.',
    param: null,
    detail: null,
  };
}

/** Terminal event name for a status: cancelled ends in `response.failed`, as the specification says. */
function terminalEventType(status: UhpResponse['status']): string {
  if (status === 'completed') return 'response.completed';
  if (status === 'incomplete') return 'response.incomplete';
  return 'response.failed';
}

/** What a `TaskRunner` works with; what is optional has the default its comment names. */
export interface TaskRunnerOptions {
  readonly store: UhpStore;
  readonly events: EventLog;
  readonly layout: UhpDataLayout;
  /** Runs the workspace tools' programs. */
  readonly sandbox: ProcessSandbox;
  /** Limits of the workspace tools; default `DEFAULT_WORKSPACE_TOOL_LIMITS`. */
  readonly toolLimits?: WorkspaceToolLimits | undefined;
  /** Prepaid balances each turn's usage is settled against; null or absent: nothing is metered. */
  readonly budgets?: PrepaidBudgets | null | undefined;
  /** This node among the nodes of one database; default: node `local`, `DEFAULT_LEASE_MS`. */
  readonly lease?: TaskLeaseOptions | undefined;
  /** A task's timeout and sleeps; default `systemClock`. */
  readonly clock?: Clock | undefined;
  /** What a turn's artifacts may hold; default `DEFAULT_ARTIFACT_LIMITS`. */
  readonly artifactLimits?: ArtifactLimits | undefined;
}

/**
 * Executes tasks: runs the harness runtime for a turn, writes its events to the log, enforces the step,
 * time and output budgets, collects artifacts, and ends every response in exactly one terminal state.
 */
export class TaskRunner {
  private readonly running = new Map<string, RunningTask>();

  // The options as given; the fields below are the ones their defaults complete.
  private readonly options: TaskRunnerOptions;
  private readonly toolLimits: WorkspaceToolLimits;
  private readonly budgets: PrepaidBudgets | null;
  readonly lease: TaskLeaseOptions;
  private readonly clock: Clock;
  private readonly artifactLimits: ArtifactLimits;

  constructor(options: TaskRunnerOptions) {
    this.options = options;
    this.toolLimits = options.toolLimits ?? DEFAULT_WORKSPACE_TOOL_LIMITS;
    this.budgets = options.budgets ?? null;
    this.lease = options.lease ?? { nodeId: 'local', clock: Date.now, leaseMs: DEFAULT_LEASE_MS };
    this.clock = options.clock ?? systemClock;
    this.artifactLimits = options.artifactLimits ?? DEFAULT_ARTIFACT_LIMITS;
  }

  /** When a lease taken or renewed now ends. */
  leaseExpiry(): number {
    return this.lease.clock() + this.lease.leaseMs;
  }

  /**
   * On PostgreSQL, takes cancellations sent by other nodes for the tasks this node runs. Not needed
   * on SQLite, which one process serves.
   */
  async listenAcrossNodes(): Promise<() => Promise<void>> {
    if (this.options.store.db.dialect !== 'postgres') return async () => {};
    return this.options.store.db.listen(CANCEL_CHANNEL, (payload) => {
      if (payload === null) return;
      let request: { responseId?: unknown; sessionId?: unknown };
      try {
        request = JSON.parse(payload) as typeof request;
      } catch {
        return; // Not one of ours: nothing to cancel.
      }
      const { responseId, sessionId } = request;
      for (const [id, task] of this.running)
        if (id === responseId || (sessionId !== undefined && task.sessionId === sessionId))
          task.controller.abort('cancelled' satisfies StopReason);
    });
  }

  /**
   * The heartbeat: renews the leases of the tasks this node runs, then takes over tasks whose node
   * stopped renewing theirs and ends them as interrupted, their partial output and events intact and
   * their reservations settled once. Answers how many it took over.
   */
  async heartbeat(): Promise<number> {
    await this.options.store.renewLeases(this.lease.nodeId, this.leaseExpiry());
    // Cancellations asked elsewhere whose notification did not arrive (it only wakes; this is the record).
    for (const responseId of await this.options.store.cancelRequests(this.lease.nodeId))
      this.running.get(responseId)?.controller.abort('cancelled' satisfies StopReason);
    const orphans = await this.options.store.claimExpiredLeases(
      this.lease.nodeId,
      this.lease.clock(),
      this.leaseExpiry(),
    );
    for (const responseId of orphans) {
      const stored = await this.options.store.responseById(responseId);
      if (stored?.status === 'in_progress') await this.endInterrupted(stored);
      else await this.options.store.releaseLease(responseId, this.lease.nodeId);
    }
    return orphans.length;
  }

  /**
   * Told when a response could not even be ended as failed (its database is unreachable); the next
   * start's recovery ends it. The plugin points this at the server's log.
   */
  onUnrecoverable: (responseId: string, error: unknown) => void = (responseId, error) => {
    process.emitWarning(`UHP: could not end ${responseId}: ${(error as Error)?.message ?? String(error)}`);
  };

  isRunning(responseId: string): boolean {
    return this.running.has(responseId);
  }

  start(task: PreparedTask): void {
    const controller = new AbortController();
    // Start on the next turn of the event loop, so the request that created the task answers (and
    // a stream sends `response.created`) before any work begins.
    const done = new Promise((resolve) => setImmediate(resolve))
      .then(() => this.execute(task, controller))
      .catch((error: unknown) =>
        // execute() ends its own failures in a terminal state; this is the net under the net (a
        // failing database write, a bug), so no response is ever left `in_progress` behind a session.
        this.endUnexpectedly(task.initial.id, task.owner, error, null),
      )
      .catch((error: unknown) => {
        // Even the net failed (the database is gone): the next start's recovery ends the response.
        this.onUnrecoverable(task.initial.id, error);
      })
      .finally(() => this.running.delete(task.initial.id));
    this.running.set(task.initial.id, { controller, sessionId: task.owner.sessionId, done });
  }

  /**
   * Ends a stored response that cannot run or could not finish: its open items are closed, it goes
   * `failed` with a server error, the reservation is settled by `usage` (zero when nothing ran), and
   * the terminal event wakes every stream. Does nothing to a response already terminal.
   */
  async endUnexpectedly(
    responseId: string,
    owner: EventOwner,
    error: unknown,
    usage: UhpResponse['usage'],
  ): Promise<void> {
    // Events appended before the failure are written (or their write failed) before anything is read.
    await this.options.events.flush(responseId).catch(() => undefined);
    const stored = await this.options.store.getResponseIncludingHidden(owner.principalId, responseId);
    if (stored?.body.status !== 'in_progress') return;
    await this.options.events.resume(responseId);
    const assembler = new ResponseAssembler();
    for (const event of await this.options.store.eventsAfter(responseId, -1)) assembler.apply(event);
    const emit = (event: NewEvent) => {
      const appended = this.options.events.append(responseId, owner, event);
      assembler.apply(appended);
      return appended;
    };
    this.closeDanglingItems(assembler, emit);
    await this.writeTerminal(stored, assembler, emit, {
      status: 'failed',
      error: serverFailure(error),
      usage,
    });
    await this.options.store.touchSession(owner.sessionId, this.clock.now());
  }

  /**
   * Asks a running task to stop and waits up to `waitMs` for its terminal state. A task running on
   * another node is asked through the database, and its terminal event arrives the same way. The
   * wait covers a turn's end after the abort (the sandbox's processes killed, artifacts collected,
   * the workspace measured for the disk quota), which takes longer than a second on a loaded host:
   * a fresh-clone CI run saw a cancel answer `in_progress` with the one-second wait this had.
   */
  async cancel(responseId: string, waitMs = CANCEL_WAIT_MS): Promise<void> {
    const task = this.running.get(responseId);
    if (task) {
      task.controller.abort('cancelled' satisfies StopReason);
      await Promise.race([task.done, delay(waitMs)]);
      return;
    }
    if (this.options.store.db.dialect !== 'postgres') return;
    await this.untilEnded([responseId], waitMs, async () => {
      await this.options.store.requestCancel({ responseId });
      await this.options.store.db.notify(CANCEL_CHANNEL, JSON.stringify({ responseId }));
    });
  }

  async cancelSession(sessionId: string, waitMs = CANCEL_WAIT_MS): Promise<void> {
    const ids = [...this.running].filter(([, task]) => task.sessionId === sessionId).map(([id]) => id);
    await Promise.all(ids.map((id) => this.cancel(id, waitMs)));
    if (this.options.store.db.dialect !== 'postgres') return;
    const elsewhere = await this.options.store.runningResponseOfSession(sessionId);
    if (elsewhere)
      await this.untilEnded([elsewhere], waitMs, async () => {
        await this.options.store.requestCancel({ sessionId });
        await this.options.store.db.notify(CANCEL_CHANNEL, JSON.stringify({ sessionId }));
      });
  }

  /** Sends a request, then waits up to `waitMs` for the responses' terminal events. */
  private async untilEnded(responseIds: string[], waitMs: number, send: () => Promise<void>): Promise<void> {
    const controller = new AbortController();
    const ended = Promise.all(
      responseIds.map((id) => this.options.events.untilTerminal(id, controller.signal)),
    );
    try {
      await send();
      await Promise.race([ended, delay(waitMs)]);
    } finally {
      controller.abort();
    }
  }

  /** Stops every task (server shutdown); each ends `failed` with `arbiter_interrupted`. */
  async shutdown(): Promise<void> {
    const tasks = [...this.running.values()];
    for (const task of tasks) task.controller.abort('shutdown' satisfies StopReason);
    await Promise.all(tasks.map((task) => task.done));
  }

  /**
   * After a crash, responses still `in_progress` have no process behind them: close their open items,
   * keep their partial output (replayed from the log) and end them `failed` with a clear error.
   */
  async recoverInterrupted(): Promise<number> {
    // SQLite is served by one process, so every lease in it belongs to a process that has ended:
    // this one takes them all. On PostgreSQL other nodes may be running their tasks right now, so
    // only expired leases are taken over, by the heartbeat.
    if (this.options.store.db.dialect === 'postgres') return this.heartbeat();
    await this.options.store.claimExpiredLeases(
      this.lease.nodeId,
      Number.MAX_SAFE_INTEGER,
      this.leaseExpiry(),
      1_000_000,
    );
    const interrupted = await this.options.store.inProgressResponses();
    for (const stored of interrupted) await this.endInterrupted(stored);
    return interrupted.length;
  }

  /** Closes a task no process runs any more: open items closed, `failed` with `arbiter_interrupted`. */
  private async endInterrupted(stored: StoredResponse): Promise<void> {
    await this.options.events.resume(stored.id);
    const assembler = new ResponseAssembler();
    for (const event of await this.options.store.eventsAfter(stored.id, -1)) assembler.apply(event);
    const owner = {
      principalId: stored.principalId,
      harnessId: stored.harnessId,
      sessionId: stored.sessionId,
    };
    const emit = (event: NewEvent) => {
      const appended = this.options.events.append(stored.id, owner, event);
      assembler.apply(appended);
      return appended;
    };
    this.closeDanglingItems(assembler, emit);
    await this.writeTerminal(stored, assembler, emit, { status: 'failed', error: INTERRUPTED });
  }

  private async execute(task: PreparedTask, controller: AbortController): Promise<void> {
    const responseId = task.initial.id;
    const assembler = new ResponseAssembler();
    for (const event of await this.options.store.eventsAfter(responseId, -1)) assembler.apply(event);
    const emit = (event: NewEvent) => {
      const appended = this.options.events.append(responseId, task.owner, event);
      assembler.apply(appended);
      return appended;
    };
    const output = new TurnOutput(emit, assembler);
    const workspace = await Workspace.open(this.options.layout.workspaceDir(task.owner.sessionId));
    const before = (await workspace.snapshot(this.artifactLimits.maxWorkspaceEntries)).files;
    const cancelTimeout =
      task.timeoutSeconds !== null
        ? this.clock.setTimer(task.timeoutSeconds * 1000, () =>
            controller.abort('timeout' satisfies StopReason),
          )
        : null;
    // The principal's quotas hold during the turn too, not only when it ends (quota-watch.ts).
    let overrun: QuotaOverrun | null = null;
    const stopWatch = watchQuotas({
      workspace,
      limits: this.artifactLimits,
      clock: this.clock,
      usedElsewhere: async () => ({
        bytes: await this.options.store.principalDiskBytes(task.owner.principalId, task.owner.sessionId),
        files: await this.options.store.principalFileCount(task.owner.principalId, task.owner.sessionId),
      }),
      onOver: (over) => {
        overrun = over;
        controller.abort('quota' satisfies StopReason);
      },
      onError: (error) =>
        emit({
          type: 'error',
          code: 'arbiter_task_failed',
          message: `The workspace could not be measured against the principal's quotas: ${(error as Error).message}`,
          param: null,
        }),
    });
    let steps = 0;
    const produced = new Set<string>();
    let finish: { reason: 'stop' | 'max_output_tokens'; usage: UhpResponse['usage'] } | null = null;
    let failure: UhpError | null = null;
    try {
      const turn: HarnessTurn = {
        ...task.turn,
        sessionId: task.owner.sessionId,
        responseId,
        harness: task.harness,
        tools: new WorkspaceTools(workspace, this.options.sandbox, this.toolLimits),
        signal: controller.signal,
      };
      for await (const event of task.runtime.run(turn)) {
        if (controller.signal.aborted) break;
        switch (event.type) {
          case 'text-delta':
            output.text(event.text);
            break;
          case 'reasoning-delta':
            output.reasoningText(event.text);
            break;
          case 'tool-call':
            if (task.maxStep !== null && steps >= task.maxStep) {
              controller.abort('max_step' satisfies StopReason);
              break;
            }
            steps++;
            output.toolCall(event.callId, event.name, event.arguments);
            break;
          case 'tool-result':
            output.toolResult(event.callId, event.output);
            break;
          case 'file-produced':
            produced.add(event.path);
            break;
          case 'warning':
            emit({ type: 'error', code: event.code, message: event.message, param: null });
            break;
          case 'finish':
            finish = {
              reason: event.reason,
              usage: event.usage && {
                input_tokens: event.usage.inputTokens,
                output_tokens: event.usage.outputTokens,
                total_tokens: event.usage.inputTokens + event.usage.outputTokens,
              },
            };
            break;
        }
        if (controller.signal.aborted) break;
      }
    } catch (error) {
      if (!controller.signal.aborted) {
        failure =
          error instanceof HarnessRuntimeError
            ? { type: 'harness_error', code: error.code, message: error.message, param: null, detail: null }
            : {
                type: 'harness_error',
                code: 'harness_error',
                message: 'The harness failed while running the task.',
                param: null,
                detail: null,
              };
      }
    } finally {
      cancelTimeout?.();
      stopWatch();
    }
    // The task leaves `running` before the first await below, so a cancel arriving now finds nothing
    // to stop: the outcome is decided once, and exactly one terminal event is written.
    const stop = controller.signal.aborted ? (controller.signal.reason as StopReason) : null;
    if (stop === 'quota' && overrun !== null) failure = quotaExceeded(overrun);
    this.running.delete(responseId);
    const itemStatus =
      stop === null && failure === null && finish?.reason === 'stop' ? 'completed' : 'incomplete';
    // Citations go on the assistant's last message when it is still open, so they sit with its text.
    const artifacts = await this.collectArtifacts(task, workspace, before, produced, emit);
    await output.cite(artifacts.cited);
    // A turn whose files were not all kept ends failed with that limit's error (its output and the
    // files stored stay), unless it was already ending for another reason.
    if (failure === null && stop === null && artifacts.overLimit) failure = artifacts.overLimit;
    output.closeOpen(failure === null ? itemStatus : 'incomplete');
    const stored = await this.options.store.getResponseIncludingHidden(task.owner.principalId, responseId);
    if (!stored) return;
    const usage = finish?.usage ?? null;
    if (stop === 'cancelled')
      await this.writeTerminal(stored, assembler, emit, { status: 'cancelled', usage });
    else if (stop === 'shutdown')
      await this.writeTerminal(stored, assembler, emit, { status: 'failed', error: INTERRUPTED, usage });
    else if (stop === 'timeout' || stop === 'max_step')
      await this.writeTerminal(stored, assembler, emit, {
        status: 'incomplete',
        reason: stop === 'timeout' ? 'timeout_seconds' : 'max_step',
        usage,
      });
    else if (failure)
      await this.writeTerminal(stored, assembler, emit, { status: 'failed', error: failure, usage });
    else if (finish?.reason === 'max_output_tokens')
      await this.writeTerminal(stored, assembler, emit, {
        status: 'incomplete',
        reason: 'max_output_tokens',
        usage,
      });
    else if (finish) await this.writeTerminal(stored, assembler, emit, { status: 'completed', usage });
    else
      await this.writeTerminal(stored, assembler, emit, {
        status: 'failed',
        error: {
          type: 'harness_error',
          code: 'harness_error',
          message: 'The harness ended without finishing the turn.',
          param: null,
          detail: null,
        },
      });
    await this.options.store.touchSession(task.owner.sessionId, this.clock.now());
  }

  /**
   * Files new or changed during the turn, and files the runtime reports, become the container's
   * artifacts, within the artifact limits. Entries that could not be stored are reported in an
   * `error` event; a limit reached is answered with the turn's error, which the caller writes.
   */
  private async collectArtifacts(
    task: PreparedTask,
    workspace: Workspace,
    before: ReadonlyMap<string, string>,
    produced: ReadonlySet<string>,
    emit: (event: NewEvent) => unknown,
  ): Promise<{ cited: CitedFile[]; overLimit: UhpError | null }> {
    const { cited, skipped, overLimit, quota } = await collectArtifacts({
      workspace,
      before,
      produced,
      turn: {
        principalId: task.owner.principalId,
        sessionId: task.owner.sessionId,
        responseId: task.initial.id,
        containerId: task.containerId,
        baseUrl: task.baseUrl,
      },
      store: this.options.store,
      layout: this.options.layout,
      limits: this.artifactLimits,
      now: () => this.clock.now(),
    });
    if (skipped.length > 0)
      emit({
        type: 'error',
        code: 'arbiter_artifacts_unavailable',
        message: `Some entries of the workspace were not stored as files (not regular files, or names that are not UTF-8): ${skipped
          .slice(0, 10)
          .map((name) => JSON.stringify(name))
          .join(', ')}${skipped.length > 10 ? ` and ${skipped.length - 10} more` : ''}.`,
        param: null,
      });
    return {
      cited,
      overLimit:
        overLimit === null
          ? null
          : {
              type: 'harness_error',
              code: 'arbiter_artifact_limit',
              message: `The turn's files were not all kept: ${overLimit}. The ${cited.length} files stored are cited; ${
                quota
                  ? 'free space by deleting sessions (DELETE /v1/sessions/{id}) or files from the workspace.'
                  : 'delete files from the workspace or start a new session.'
              }`,
              param: null,
              detail: quota ? { ...quota } : null,
            },
    };
  }

  /** Items a crash left open get their closing events, so every `added` has its `done`. */
  private closeDanglingItems(assembler: ResponseAssembler, emit: (event: NewEvent) => unknown): void {
    assembler.output.forEach((item, index) => {
      if (item.status !== 'in_progress') return;
      const closed = { ...structuredClone(item), status: 'incomplete' };
      emit({ type: 'response.output_item.done', output_index: index, item: closed });
    });
  }

  private async writeTerminal(
    stored: StoredResponse,
    assembler: ResponseAssembler,
    emit: (event: NewEvent) => unknown,
    outcome: {
      status: Exclude<UhpResponse['status'], 'in_progress'>;
      error?: UhpError;
      reason?: string;
      usage?: UhpResponse['usage'];
    },
  ): Promise<void> {
    // The log holds every event before the terminal state is decided from it.
    await this.options.events.flush(stored.id);
    const final: UhpResponse = {
      ...stored.body,
      status: outcome.status,
      error: outcome.error ?? null,
      incomplete_details: outcome.reason ? { reason: outcome.reason } : null,
      output: assembler.snapshot(),
      usage: outcome.usage ?? null,
    };
    // The terminal body and the budget settlement commit together: a crash leaves either both (and
    // recovery skips the response) or neither (and recovery settles it), never a double charge.
    // Only the node holding the task's lease ends it: a node that was presumed dead and taken over
    // finds the lease gone and writes nothing, so the response ends and settles exactly once.
    const ended = await this.options.store
      .transaction(async (tx) => {
        if ((await tx.releaseLease(final.id, this.lease.nodeId)) === 'foreign') throw new LeaseLost(final.id);
        await tx.saveResponseBody(final, final.store === false);
        await this.budgets?.settle(final.id, final.usage, tx.db);
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof LeaseLost) return false;
        throw error;
      });
    if (!ended) {
      await this.options.events.flush(stored.id, { final: true }).catch(() => undefined);
      return;
    }
    emit({ type: terminalEventType(final.status), response: final });
    await this.options.events.flush(stored.id, { final: true });
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** The error of a turn stopped because its principal went past a quota while it ran. */
function quotaExceeded(overrun: QuotaOverrun): UhpError {
  return {
    type: 'harness_error',
    code: 'arbiter_quota_exceeded',
    message: `The turn was stopped: ${overrun.message}. Free space by deleting sessions (DELETE /v1/sessions/{id}) or files from the workspace.`,
    param: null,
    detail: { quota: overrun.quota, limit: overrun.limit, used: overrun.used },
  };
}
