import fs from 'node:fs';
import path from 'node:path';
import { type Clock, systemClock } from '@arbiter/decision';
import {
  CREATE_RESPONSE_REQUEST_KEYS,
  type CreateResponseRequest,
  type Harness,
  type StreamEvent,
  type UhpResponse,
} from '@arbiter/uhp/wire';
import { formatAmount } from '../billing/money.js';
import type { PrepaidBudgets } from '../billing/prepaid-budgets.js';
import type { HarnessService } from './harness/harness-service.js';
import { skillFileBytes } from './harness/skill-bundle.js';
import { type IncomingFile, readTaskInput, type TaskInput } from './input/task-input.js';
import { newObjectId } from './object-id.js';
import type { ConversationMessage, HarnessRuntime } from './runtime/harness-runtime.js';
import type { UhpDataLayout } from './storage/data-layout.js';
import type { StoredSession, UhpStore } from './storage/uhp-store.js';
import type { EventLog } from './streaming/event-log.js';
import type { PreparedTask, TaskRunner } from './task-runner.js';
import { inputTextOf, outputTextOf, toolExchangesOf } from './turn-text.js';
import { notFound, UhpFailure } from './uhp-error.js';
import { RESERVED_WORKSPACE_DIR, Workspace } from './workspace/workspace.js';

export interface TaskLimits {
  /** Largest file accepted inline or by upload. */
  readonly maxFileBytes: number;
  /** A session untouched for longer than this cannot be continued (`session_expired`). */
  readonly sessionRetentionMs: number;
  /** How long an Idempotency-Key is remembered. */
  readonly idempotencyRetentionMs: number;
  /**
   * Tasks one principal may have running at once, over all its sessions and every node; a task
   * past it is refused with `429 quota_exhausted` (`detail.quota: "concurrent_tasks"`). null: none.
   */
  readonly maxConcurrentTasksPerPrincipal?: number | null;
  /**
   * Bytes one principal may hold on disk (stored files and workspaces, `ArtifactLimits`); a task of
   * a principal at or over it is refused with `429 quota_exhausted` (`detail.quota: "disk_bytes"`).
   * null: none.
   */
  readonly maxDiskBytesPerPrincipal?: number | null;
  /**
   * Files one principal may hold (stored files and workspace entries, `ArtifactLimits`); a task of
   * a principal at or over it is refused with `429 quota_exhausted` (`detail.quota: "files"`).
   * null: none.
   */
  readonly maxFilesPerPrincipal?: number | null;
}

export interface CreatedTask {
  readonly responseId: string;
  /** true when an Idempotency-Key matched an earlier request: nothing new was started. */
  readonly replayed: boolean;
}

const NOTHING_USED = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };

/** Thrown inside the creating transaction when a concurrent retry with the same key got there first. */
class ReplayedTask extends Error {
  constructor(readonly responseId: string) {
    super('replayed');
  }
}

/** Every `file_id` string anywhere in a request's input (read fully by `readTaskInput` afterwards). */
function fileIdsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) fileIdsIn(item, found);
  else if (value !== null && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'file_id' && typeof inner === 'string') found.add(inner);
      else fileIdsIn(inner, found);
    }
  return found;
}

/** What a `TaskService` works with. */
export interface TaskServiceOptions {
  readonly store: UhpStore;
  readonly events: EventLog;
  /** Executes the tasks this service records. */
  readonly runner: TaskRunner;
  readonly layout: UhpDataLayout;
  /** The harnesses and the runtimes of their bases. */
  readonly harnesses: HarnessService;
  readonly limits: TaskLimits;
  /** Prepaid balances; null or absent, or a principal without an account: unmetered. */
  readonly budgets?: PrepaidBudgets | null | undefined;
  /** Stamps and expiries; default `systemClock`. */
  readonly clock?: Clock | undefined;
}

/** Turns a `POST /v1/responses` into a recorded response and a started execution. */
export class TaskService {
  // The options as given; the fields below are the ones their defaults complete.
  private readonly options: TaskServiceOptions;
  private readonly budgets: PrepaidBudgets | null;
  private readonly clock: Clock;

  constructor(options: TaskServiceOptions) {
    this.options = options;
    this.budgets = options.budgets ?? null;
    this.clock = options.clock ?? systemClock;
  }

  get limits(): TaskLimits {
    return this.options.limits;
  }

  /**
   * The steps of a task's creation, in order: an Idempotency-Key seen before answers at once; the
   * session and harness it continues or names are resolved and checked; the input is read; the
   * response is recorded (with its budget reservation, in one transaction); and only then is the
   * task started, so every failure before recording leaves nothing behind.
   */
  async create(
    principalId: string,
    request: CreateResponseRequest,
    options: { idempotencyKey: string | null; baseUrl: string },
  ): Promise<CreatedTask> {
    const now = this.clock.now();
    const earlier = await this.earlierTask(principalId, options.idempotencyKey, now);
    if (earlier) return { responseId: earlier, replayed: true };
    const { session, harness } = await this.resolveTarget(principalId, request, now);
    const runtime = this.runtimeFor(harness);
    const model = resolveModel(runtime, harness, request.model);
    if (session) await this.checkSessionIdle(session);
    checkTaskBudgets(request);
    const input = await this.readInput(principalId, request, session);

    const responseId = newObjectId('resp');
    const sessionId = session?.id ?? newObjectId('hsess');
    const containerId = session?.containerId ?? newObjectId('cntr');
    const initial = initialResponse(request, { responseId, sessionId, containerId, harness, model, now });
    const owner = { principalId, harnessId: harness.id, sessionId };
    const conversation = session ? await this.conversationOf(session.id) : [];
    const recorded = await this.record({
      principalId,
      request,
      idempotencyKey: options.idempotencyKey,
      session,
      sessionId,
      containerId,
      harness,
      input,
      initial,
      now,
    });
    if ('replayedBy' in recorded) return { responseId: recorded.replayedBy, replayed: true };
    this.options.events.announce(responseId, owner, recorded.events);
    await this.start({
      initial,
      owner,
      containerId,
      harness,
      runtime,
      request,
      input,
      conversation,
      maxOutputTokens: recorded.maxOutputTokens,
      baseUrl: options.baseUrl,
    });
    return { responseId, replayed: false };
  }

  /** The response an Idempotency-Key started within its retention, if any. */
  private async earlierTask(principalId: string, idempotencyKey: string | null, now: number) {
    if (!idempotencyKey) return undefined;
    return this.options.store.findIdempotencyKey(
      principalId,
      idempotencyKey,
      now - this.limits.idempotencyRetentionMs,
    );
  }

  /**
   * The session a task continues (from `previous_response_id`, unexpired, on the same harness) and
   * the harness it runs on: the continued session's, the one named in `metadata.harness_id`, or the
   * principal's default.
   */
  private async resolveTarget(
    principalId: string,
    request: CreateResponseRequest,
    now: number,
  ): Promise<{ session: StoredSession | undefined; harness: Harness }> {
    const requestedHarness =
      typeof request.metadata?.harness_id === 'string' ? request.metadata.harness_id : null;
    if (request.previous_response_id) {
      const previous = await this.options.store.getResponseIncludingHidden(
        principalId,
        request.previous_response_id,
      );
      if (!previous) throw notFound('response_not_found', 'response', 'previous_response_id');
      const session = await this.options.store.getSession(principalId, previous.sessionId);
      if (!session) throw notFound('session_not_found', 'session', 'previous_response_id');
      if (session.updatedAt < now - this.limits.sessionRetentionMs)
        throw new UhpFailure(
          'session_expired',
          'The session of that response has expired; start a new task.',
          {
            param: 'previous_response_id',
          },
        );
      if (requestedHarness && requestedHarness !== session.harnessId)
        throw new UhpFailure(
          'harness_mismatch',
          'metadata.harness_id differs from the harness of the continued session.',
          {
            param: 'metadata.harness_id',
            detail: { session_harness_id: session.harnessId },
          },
        );
      const stored = await this.options.store.getHarnessIncludingDeleted(principalId, session.harnessId);
      if (!stored) throw notFound('harness_not_found', 'harness', 'metadata.harness_id');
      return { session, harness: stored.harness };
    }
    if (requestedHarness) {
      const stored = await this.options.store.getHarness(principalId, requestedHarness);
      if (!stored) throw notFound('harness_not_found', 'harness', 'metadata.harness_id');
      return { session: undefined, harness: stored.harness };
    }
    return { session: undefined, harness: (await this.options.harnesses.ensureDefault(principalId)).harness };
  }

  private runtimeFor(harness: Harness): HarnessRuntime {
    const runtime = this.options.harnesses.runtimeFor(harness.base);
    if (!runtime)
      throw new UhpFailure(
        'harness_unavailable',
        'The runtime of this harness is not available on this server.',
      );
    return runtime;
  }

  /**
   * The principal's quota of tasks running at once, checked inside the recording transaction under
   * a lock of the principal (PostgreSQL; SQLite's transactions already exclude each other), so two
   * requests on two nodes cannot both take the last place.
   */
  private async checkConcurrentTasks(tx: UhpStore, principalId: string): Promise<void> {
    const limit = this.limits.maxConcurrentTasksPerPrincipal ?? null;
    if (limit === null) return;
    await tx.db.lock(`arbiter_principal_tasks:${principalId}`);
    if ((await tx.runningResponseCount(principalId)) < limit) return;
    throw new UhpFailure(
      'quota_exhausted',
      `This principal already runs ${limit} tasks at once, its quota of concurrent tasks; start this one when one of them has ended.`,
      { detail: { quota: 'concurrent_tasks', limit } },
    );
  }

  /**
   * The principal's disk quota: a principal at or over it starts nothing more until it frees space.
   * Its usage is what the last turns measured (`collectArtifacts`), so a turn running now is counted
   * when it ends; that turn is itself held to the room left (see docs/security.md, "Disk").
   */
  private async checkDiskQuota(tx: UhpStore, principalId: string): Promise<void> {
    const limit = this.limits.maxDiskBytesPerPrincipal ?? null;
    if (limit === null) return;
    const used = await tx.principalDiskBytes(principalId);
    if (used < limit) return;
    throw new UhpFailure(
      'quota_exhausted',
      `This principal holds ${used} bytes on disk (workspaces and stored files), at or over its disk quota of ${limit} bytes; delete sessions (DELETE /v1/sessions/{id}) to free space, then start this task again.`,
      { detail: { quota: 'disk_bytes', limit, used } },
    );
  }

  /** The principal's file quota, counted as the disk quota is (see `checkDiskQuota`). */
  private async checkFileQuota(tx: UhpStore, principalId: string): Promise<void> {
    const limit = this.limits.maxFilesPerPrincipal ?? null;
    if (limit === null) return;
    const used = await tx.principalFileCount(principalId);
    if (used < limit) return;
    throw new UhpFailure(
      'quota_exhausted',
      `This principal holds ${used} files (workspace entries and stored files), at or over its file quota of ${limit}; delete sessions (DELETE /v1/sessions/{id}) or files, then start this task again.`,
      { detail: { quota: 'files', limit, used } },
    );
  }

  /** A session runs one task at a time; checked again inside the recording transaction. */
  private async checkSessionIdle(session: StoredSession): Promise<void> {
    const running = await this.options.store.runningResponseOfSession(session.id);
    if (running)
      throw new UhpFailure('session_busy', 'A task is already running in this session.', {
        detail: { response_id: running },
      });
  }

  /** The task's input with its uploaded files; a continued session's folders keep their names. */
  private async readInput(
    principalId: string,
    request: CreateResponseRequest,
    session: StoredSession | undefined,
  ): Promise<TaskInput> {
    const uploaded = await this.uploadedFiles(principalId, request.input);
    const input = readTaskInput(request.input, {
      maxFileBytes: this.limits.maxFileBytes,
      uploadedFile: (fileId) => uploaded.get(fileId),
    });
    if (session) this.checkInputNames(session.id, input.files);
    return input;
  }

  /**
   * Records the task: session, response, lease, Idempotency-Key and its first events. One
   * transaction: the busy check and these inserts cannot interleave with another request, on this
   * node or another, so a session never runs two tasks and an Idempotency-Key starts one. SQLite's
   * transactions exclude each other (BEGIN IMMEDIATE); in PostgreSQL the session and the key are
   * locked first, and the budget account row by the reservation.
   */
  private async record(task: {
    principalId: string;
    request: CreateResponseRequest;
    idempotencyKey: string | null;
    session: StoredSession | undefined;
    sessionId: string;
    containerId: string;
    harness: Harness;
    input: TaskInput;
    initial: UhpResponse;
    now: number;
  }): Promise<{ replayedBy: string } | { events: StreamEvent[]; maxOutputTokens: number | null }> {
    const { principalId, idempotencyKey, session, sessionId, now } = task;
    return this.options.store
      .transaction(async (tx) => {
        if (idempotencyKey) {
          await tx.lockIdempotencyKey(principalId, idempotencyKey);
          const earlier = await tx.findIdempotencyKey(
            principalId,
            idempotencyKey,
            now - this.limits.idempotencyRetentionMs,
          );
          if (earlier) throw new ReplayedTask(earlier);
        }
        if (session) await tx.lockSession(session.id);
        if (session && (await tx.runningResponseOfSession(session.id)))
          throw new UhpFailure('session_busy', 'A task is already running in this session.');
        await this.checkConcurrentTasks(tx, principalId);
        await this.checkDiskQuota(tx, principalId);
        await this.checkFileQuota(tx, principalId);
        const maxOutputTokens = await this.reserveBudget(tx, {
          principalId,
          responseId: task.initial.id,
          model: task.initial.model,
          maxOutputTokens: task.request.max_output_tokens ?? null,
        });
        if (!session) {
          await tx.insertSession({
            id: sessionId,
            principalId,
            harnessId: task.harness.id,
            containerId: task.containerId,
            title: task.input.text.split('\n')[0]?.slice(0, 80) || 'Untitled task',
            createdAt: now,
            updatedAt: now,
          });
        } else {
          await tx.touchSession(session.id, now);
        }
        await tx.insertResponse({
          id: task.initial.id,
          principalId,
          sessionId,
          harnessId: task.harness.id,
          turnIndex: await tx.nextTurnIndex(sessionId),
          body: task.initial,
          input: task.input.items,
        });
        // The node that will run the task holds it from the start (docs/deployment.md, "Leases").
        await tx.insertLease(
          task.initial.id,
          this.options.runner.lease.nodeId,
          this.options.runner.leaseExpiry(),
        );
        if (idempotencyKey)
          await tx.insertIdempotencyKey(
            principalId,
            idempotencyKey,
            task.initial.id,
            task.request.stream === true,
          );
        const events = await this.options.events.recordInitial(tx, task.initial.id, [
          { type: 'response.created', response: task.initial },
          { type: 'response.in_progress', response: task.initial },
        ]);
        return { events, maxOutputTokens };
      })
      .catch((error: unknown) => {
        if (error instanceof ReplayedTask) return { replayedBy: error.responseId };
        throw error;
      });
  }

  /**
   * Reserves the task's output budget on a prepaid account; the token count a metered task is held
   * to, or the requested one when the principal is unmetered.
   */
  private async reserveBudget(
    tx: UhpStore,
    task: { principalId: string; responseId: string; model: string; maxOutputTokens: number | null },
  ): Promise<number | null> {
    const reservation = await this.budgets?.reserve(task, tx.db);
    if (!reservation?.metered) return task.maxOutputTokens;
    if (!reservation.ok && reservation.reason === 'currency_mismatch')
      throw new UhpFailure(
        'arbiter_billing_currency_mismatch',
        `Your prepaid balance is in ${reservation.balanceCurrency} but this server prices models in ${reservation.priceCurrency}; ask the operator to correct it.`,
      );
    if (!reservation.ok)
      throw new UhpFailure(
        'quota_exhausted',
        "The prepaid balance does not cover max_output_tokens at this model's output price; lower max_output_tokens or add credit.",
        {
          param: 'max_output_tokens',
          detail: {
            required: formatAmount(reservation.requiredNanos),
            available: formatAmount(reservation.availableNanos),
            currency: reservation.currency,
          },
        },
      );
    return reservation.maxOutputTokens;
  }

  /**
   * Puts the input files and skills in the workspace and hands the task to the runner. The response
   * is stored: from here every failure must end it (terminal state, events, session released,
   * reservation settled), never leave it `in_progress`.
   */
  private async start(task: {
    initial: UhpResponse;
    owner: PreparedTask['owner'];
    containerId: string;
    harness: Harness;
    runtime: HarnessRuntime;
    request: CreateResponseRequest;
    input: TaskInput;
    conversation: ConversationMessage[];
    maxOutputTokens: number | null;
    baseUrl: string;
  }): Promise<void> {
    const { initial, owner, harness, request } = task;
    let files: Awaited<ReturnType<TaskService['materialiseInputs']>>;
    try {
      const workspace = await Workspace.open(this.options.layout.workspaceDir(owner.sessionId));
      files = await this.materialiseInputs(workspace, task.input.files);
      await this.materialiseSkills(workspace, harness);
    } catch (error) {
      // Nothing ran, so nothing was used: the whole reservation is refunded.
      await this.options.runner.endUnexpectedly(initial.id, owner, error, NOTHING_USED);
      return;
    }
    this.options.runner.start({
      initial,
      owner,
      containerId: task.containerId,
      harness,
      runtime: task.runtime,
      turn: {
        model: initial.model,
        instructions: [harness.systemPrompt, request.instructions].filter(Boolean).join('\n\n') || null,
        conversation: task.conversation,
        text: task.input.text,
        files,
        maxOutputTokens: task.maxOutputTokens,
      },
      maxStep: request.max_step ?? harness.maxStep ?? null,
      timeoutSeconds: request.timeout_seconds ?? harness.timeoutSeconds ?? null,
      store: request.store ?? true,
      baseUrl: task.baseUrl,
    });
  }

  /** The uploaded files an input names (`file_id`), looked up before the input is read. */
  private async uploadedFiles(principalId: string, input: unknown): Promise<Map<string, IncomingFile>> {
    const found = new Map<string, IncomingFile>();
    for (const fileId of fileIdsIn(input)) {
      const file = await this.options.store.getFile(principalId, fileId);
      if (!file) continue;
      found.set(fileId, {
        filename: path.basename(file.filename),
        mediaType: file.mediaType,
        data: await fs.promises.readFile(this.options.layout.fileBlob(file.id)),
        fileId: file.id,
      });
    }
    return found;
  }

  /**
   * An input file lands at the top of the workspace under its own name; a folder the session
   * already has there cannot be replaced by it, which the client can fix by renaming the file.
   */
  private checkInputNames(sessionId: string, files: readonly IncomingFile[]): void {
    const root = this.options.layout.workspaceDir(sessionId);
    if (files.length === 0 || !fs.existsSync(root)) return;
    const workspace = new Workspace(root);
    for (const file of files) {
      if (file.filename === RESERVED_WORKSPACE_DIR || workspace.kindOf(file.filename) === 'directory')
        throw new UhpFailure(
          'arbiter_input_name_conflict',
          `The session's workspace has a folder named "${file.filename}"; give the input file another name.`,
          { param: 'input', detail: { filename: file.filename } },
        );
    }
  }

  private async materialiseInputs(workspace: Workspace, files: readonly IncomingFile[]) {
    const written = [];
    for (const file of files) {
      await workspace.writeInput(file.filename, file.data);
      written.push({ path: file.filename, filename: file.filename, mediaType: file.mediaType });
    }
    return written;
  }

  /** The whole folder of every enabled skill, where the agent can read it. */
  private async materialiseSkills(workspace: Workspace, harness: Harness): Promise<void> {
    await workspace.replaceSkills(
      (harness.skills ?? [])
        .filter((skill) => skill.enabled !== false)
        .flatMap((skill) =>
          (skill.files ?? []).map((file) => ({
            path: `${skill.name}/${file.path}`,
            bytes: skillFileBytes(file),
          })),
        ),
    );
  }

  private async conversationOf(sessionId: string): Promise<ConversationMessage[]> {
    const messages: ConversationMessage[] = [];
    for (const turn of await this.options.store.sessionResponses(sessionId)) {
      messages.push({ role: 'user', text: inputTextOf(turn.input) });
      const assistantText = outputTextOf(turn.body.output);
      const toolCalls = toolExchangesOf(turn.body.output);
      if (toolCalls.length > 0) messages.push({ role: 'assistant', text: assistantText, toolCalls });
      else if (assistantText) messages.push({ role: 'assistant', text: assistantText });
    }
    return messages;
  }
}

/** `max_step`, `timeout_seconds` and `max_output_tokens`, where given, are positive. */
function checkTaskBudgets(request: CreateResponseRequest): void {
  for (const [param, value] of [
    ['max_step', request.max_step],
    ['timeout_seconds', request.timeout_seconds],
    ['max_output_tokens', request.max_output_tokens],
  ] as const) {
    if (value !== undefined && value !== null && value < 1)
      throw new UhpFailure('invalid_input', `${param} must be a positive integer or null.`, {
        param,
      });
  }
}

/**
 * The response as it is first recorded: in progress, naming the model that will run (and the
 * substitution, if any), the session, harness and container, and the request fields it ignored.
 */
function initialResponse(
  request: CreateResponseRequest,
  task: {
    responseId: string;
    sessionId: string;
    containerId: string;
    harness: Harness;
    model: { id: string; fallbackReason: string | null };
    now: number;
  },
): UhpResponse {
  const { model } = task;
  const ignored = Object.keys(request).filter((key) => !CREATE_RESPONSE_REQUEST_KEYS.includes(key));
  const clientMetadata = Object.fromEntries(
    Object.entries(request.metadata ?? {}).filter(([key]) => key !== 'harness_id'),
  );
  return {
    id: task.responseId,
    object: 'response',
    created_at: Math.floor(task.now / 1000),
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    previous_response_id: request.previous_response_id ?? null,
    model: model.id,
    output: [],
    store: request.store ?? true,
    usage: null,
    metadata: {
      ...clientMetadata,
      session_id: task.sessionId,
      harness_id: task.harness.id,
      container_id: task.containerId,
      ...(model.fallbackReason
        ? {
            requested_model: request.model,
            model_fallback: true,
            model_fallback_reason: model.fallbackReason,
          }
        : {}),
      ...(ignored.length > 0 ? { ignored_fields: ignored } : {}),
    },
  };
}

/**
 * The model that will run: the requested one when this harness's runtime serves it now, otherwise the
 * harness default, reported as a substitution.
 */
function resolveModel(runtime: HarnessRuntime, harness: Harness, requested: string | undefined) {
  const models = runtime.models();
  const fallbackId = harness.defaultModel ?? runtime.defaultModel;
  const fallback = models.find((model) => model.id === fallbackId && model.available());
  if (requested !== undefined) {
    const match = models.find((model) => model.id === requested);
    if (match?.available()) return { id: match.id, fallbackReason: null };
    if (!fallback)
      throw new UhpFailure(
        'model_unavailable',
        'Neither the requested model nor the harness default can be served now.',
        {
          param: 'model',
        },
      );
    return {
      id: fallback.id,
      fallbackReason: match
        ? 'The requested model is not available right now.'
        : "The requested model is not in this server's catalog.",
    };
  }
  if (!fallback)
    throw new UhpFailure('model_unavailable', 'The default model of this harness cannot be served now.', {
      param: 'model',
    });
  return { id: fallback.id, fallbackReason: null };
}
