import { type SqlDatabase, schemaTypes } from '@arbiter/storage';
import type { Harness, ResponseStatus, StreamEvent, UhpResponse } from '@arbiter/uhp/wire';

export interface StoredHarness {
  readonly harness: Harness;
  readonly principalId: string;
  readonly isDefault: boolean;
}

export interface StoredSession {
  readonly id: string;
  readonly principalId: string;
  readonly harnessId: string;
  readonly containerId: string;
  readonly title: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface StoredResponse {
  readonly id: string;
  readonly principalId: string;
  readonly sessionId: string;
  readonly harnessId: string;
  readonly turnIndex: number;
  readonly status: ResponseStatus;
  readonly body: UhpResponse;
  readonly input: unknown[];
  readonly hidden: boolean;
}

export interface StoredFile {
  readonly id: string;
  readonly principalId: string;
  readonly containerId: string | null;
  readonly sessionId: string | null;
  readonly responseId: string | null;
  readonly filename: string;
  readonly mediaType: string;
  readonly bytes: number;
  readonly purpose: 'artifact' | 'user_data';
  readonly createdAt: number;
}

interface HarnessRow {
  id: string;
  principal_id: string;
  config_json: string;
  is_default: number;
}
interface SessionRow {
  id: string;
  principal_id: string;
  harness_id: string;
  container_id: string;
  title: string;
  created_at: number;
  updated_at: number;
}
interface ResponseRow {
  id: string;
  principal_id: string;
  session_id: string;
  harness_id: string;
  turn_index: number;
  status: ResponseStatus;
  body_json: string;
  input_json: string;
  hidden: number;
}
interface FileRow {
  id: string;
  principal_id: string;
  container_id: string | null;
  session_id: string | null;
  response_id: string | null;
  filename: string;
  media_type: string;
  bytes: number;
  purpose: 'artifact' | 'user_data';
  created_at: number;
}

const toHarness = (row: HarnessRow): StoredHarness => ({
  harness: JSON.parse(row.config_json) as Harness,
  principalId: row.principal_id,
  isDefault: row.is_default === 1,
});
const toSession = (row: SessionRow): StoredSession => ({
  id: row.id,
  principalId: row.principal_id,
  harnessId: row.harness_id,
  containerId: row.container_id,
  title: row.title,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
const toResponse = (row: ResponseRow): StoredResponse => ({
  id: row.id,
  principalId: row.principal_id,
  sessionId: row.session_id,
  harnessId: row.harness_id,
  turnIndex: row.turn_index,
  status: row.status,
  body: JSON.parse(row.body_json) as UhpResponse,
  input: JSON.parse(row.input_json) as unknown[],
  hidden: row.hidden === 1,
});
const toFile = (row: FileRow): StoredFile => ({
  id: row.id,
  principalId: row.principal_id,
  containerId: row.container_id,
  sessionId: row.session_id,
  responseId: row.response_id,
  filename: row.filename,
  mediaType: row.media_type,
  bytes: row.bytes,
  purpose: row.purpose,
  createdAt: row.created_at,
});

/**
 * Every UHP query, each taking the owner so that nothing is readable outside its principal's scope.
 * The same statements run on SQLite and PostgreSQL (`SqlDatabase`); a check-then-insert that must
 * be atomic runs inside `transaction`.
 */
export class UhpStore {
  constructor(readonly db: SqlDatabase) {}

  /** Runs `work` with a store whose every statement belongs to one transaction. */
  transaction<T>(work: (tx: UhpStore) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new UhpStore(tx)));
  }

  // ── harnesses ──────────────────────────────────────────────────────────────
  async insertHarness(principalId: string, harness: Harness, isDefault = false): Promise<void> {
    await this.db.run(
      'INSERT INTO uhp_harnesses (id, principal_id, name, base, config_json, is_default, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        harness.id,
        principalId,
        harness.name,
        harness.base,
        JSON.stringify(harness),
        isDefault ? 1 : 0,
        harness.createdAt ?? Date.now(),
      ],
    );
  }

  async updateHarness(principalId: string, harness: Harness): Promise<void> {
    await this.db.run(
      'UPDATE uhp_harnesses SET name = ?, config_json = ? WHERE id = ? AND principal_id = ? AND deleted_at IS NULL',
      [harness.name, JSON.stringify(harness), harness.id, principalId],
    );
  }

  async getHarness(principalId: string, id: string): Promise<StoredHarness | undefined> {
    const row = await this.db.get<HarnessRow>(
      'SELECT * FROM uhp_harnesses WHERE id = ? AND principal_id = ? AND deleted_at IS NULL',
      [id, principalId],
    );
    return row && toHarness(row);
  }

  /** Includes deleted harnesses: sessions that used one keep running against its last configuration. */
  async getHarnessIncludingDeleted(principalId: string, id: string): Promise<StoredHarness | undefined> {
    const row = await this.db.get<HarnessRow>(
      'SELECT * FROM uhp_harnesses WHERE id = ? AND principal_id = ?',
      [id, principalId],
    );
    return row && toHarness(row);
  }

  async listHarnesses(principalId: string): Promise<StoredHarness[]> {
    const rows = await this.db.all<HarnessRow>(
      'SELECT * FROM uhp_harnesses WHERE principal_id = ? AND deleted_at IS NULL ORDER BY created_at, id',
      [principalId],
    );
    return rows.map(toHarness);
  }

  async defaultHarness(principalId: string): Promise<StoredHarness | undefined> {
    const row = await this.db.get<HarnessRow>(
      'SELECT * FROM uhp_harnesses WHERE principal_id = ? AND is_default = 1 AND deleted_at IS NULL ORDER BY created_at, id LIMIT 1',
      [principalId],
    );
    return row && toHarness(row);
  }

  async deleteHarness(principalId: string, id: string): Promise<boolean> {
    const changed = await this.db.run(
      'UPDATE uhp_harnesses SET deleted_at = ? WHERE id = ? AND principal_id = ? AND deleted_at IS NULL',
      [Date.now(), id, principalId],
    );
    return changed > 0;
  }

  // ── sessions ───────────────────────────────────────────────────────────────
  async insertSession(session: StoredSession): Promise<void> {
    await this.db.run(
      'INSERT INTO uhp_sessions (id, principal_id, harness_id, container_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        session.id,
        session.principalId,
        session.harnessId,
        session.containerId,
        session.title,
        session.createdAt,
        session.updatedAt,
      ],
    );
  }

  async getSession(principalId: string, id: string): Promise<StoredSession | undefined> {
    const row = await this.db.get<SessionRow>(
      'SELECT * FROM uhp_sessions WHERE id = ? AND principal_id = ?',
      [id, principalId],
    );
    return row && toSession(row);
  }

  async getSessionById(id: string): Promise<StoredSession | undefined> {
    const row = await this.db.get<SessionRow>('SELECT * FROM uhp_sessions WHERE id = ?', [id]);
    return row && toSession(row);
  }

  async getSessionByContainer(principalId: string, containerId: string): Promise<StoredSession | undefined> {
    const row = await this.db.get<SessionRow>(
      'SELECT * FROM uhp_sessions WHERE container_id = ? AND principal_id = ?',
      [containerId, principalId],
    );
    return row && toSession(row);
  }

  async touchSession(id: string, at: number): Promise<void> {
    await this.db.run('UPDATE uhp_sessions SET updated_at = ? WHERE id = ?', [at, id]);
  }

  /** Newest first; the cursor is the last row's `(created_at, id)`, so pages never skip or repeat. */
  async listSessions(
    principalId: string,
    options: { limit: number; after?: { createdAt: number; id: string }; harnessId?: string },
  ): Promise<StoredSession[]> {
    const clauses = ['principal_id = ?'];
    const params: (string | number)[] = [principalId];
    if (options.harnessId) {
      clauses.push('harness_id = ?');
      params.push(options.harnessId);
    }
    if (options.after) {
      clauses.push('(created_at < ? OR (created_at = ? AND id < ?))');
      params.push(options.after.createdAt, options.after.createdAt, options.after.id);
    }
    params.push(options.limit);
    const rows = await this.db.all<SessionRow>(
      `SELECT * FROM uhp_sessions WHERE ${clauses.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`,
      params,
    );
    return rows.map(toSession);
  }

  async deleteSession(principalId: string, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(
        'DELETE FROM uhp_idempotency_keys WHERE principal_id = ? AND response_id IN (SELECT id FROM uhp_responses WHERE session_id = ?)',
        [principalId, id],
      );
      await tx.run('DELETE FROM uhp_sessions WHERE id = ? AND principal_id = ?', [id, principalId]);
    });
  }

  /**
   * Serialises, until the end of the current transaction, every transaction that starts or continues
   * this session, so the busy check and the insert of a new turn cannot interleave across processes.
   */
  async lockSession(sessionId: string): Promise<void> {
    await this.db.lock(`uhp-session:${sessionId}`);
  }

  // ── responses ──────────────────────────────────────────────────────────────
  async insertResponse(row: Omit<StoredResponse, 'hidden' | 'status'>): Promise<void> {
    await this.db.run(
      'INSERT INTO uhp_responses (id, principal_id, session_id, harness_id, turn_index, status, body_json, input_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        row.id,
        row.principalId,
        row.sessionId,
        row.harnessId,
        row.turnIndex,
        row.body.status,
        JSON.stringify(row.body),
        JSON.stringify(row.input),
        row.body.created_at,
      ],
    );
  }

  async saveResponseBody(body: UhpResponse, hidden = false): Promise<void> {
    // Hiding is one-way: a save never makes a hidden response visible again.
    await this.db.run(
      'UPDATE uhp_responses SET status = ?, body_json = ?, hidden = CASE WHEN ? = 1 THEN 1 ELSE hidden END WHERE id = ?',
      [body.status, JSON.stringify(body), hidden ? 1 : 0, body.id],
    );
  }

  async getResponse(principalId: string, id: string): Promise<StoredResponse | undefined> {
    const row = await this.db.get<ResponseRow>(
      'SELECT * FROM uhp_responses WHERE id = ? AND principal_id = ? AND hidden = 0',
      [id, principalId],
    );
    return row && toResponse(row);
  }

  /** Any principal's response: for the runner's recovery of tasks whose node is gone, never for a request. */
  async responseById(id: string): Promise<StoredResponse | undefined> {
    const row = await this.db.get<ResponseRow>('SELECT * FROM uhp_responses WHERE id = ?', [id]);
    return row && toResponse(row);
  }

  /** Hidden responses still anchor continuation and idempotent retries. */
  async getResponseIncludingHidden(principalId: string, id: string): Promise<StoredResponse | undefined> {
    const row = await this.db.get<ResponseRow>(
      'SELECT * FROM uhp_responses WHERE id = ? AND principal_id = ?',
      [id, principalId],
    );
    return row && toResponse(row);
  }

  async hideResponse(principalId: string, id: string): Promise<boolean> {
    const changed = await this.db.run(
      'UPDATE uhp_responses SET hidden = 1 WHERE id = ? AND principal_id = ? AND hidden = 0',
      [id, principalId],
    );
    return changed > 0;
  }

  async sessionResponses(sessionId: string): Promise<StoredResponse[]> {
    const rows = await this.db.all<ResponseRow>(
      'SELECT * FROM uhp_responses WHERE session_id = ? ORDER BY turn_index',
      [sessionId],
    );
    return rows.map(toResponse);
  }

  async responseStatus(id: string): Promise<ResponseStatus | undefined> {
    const row = await this.db.get<{ status: ResponseStatus }>(
      'SELECT status FROM uhp_responses WHERE id = ?',
      [id],
    );
    return row?.status;
  }

  async runningResponseOfSession(sessionId: string): Promise<string | undefined> {
    const row = await this.db.get<{ id: string }>(
      "SELECT id FROM uhp_responses WHERE session_id = ? AND status = 'in_progress' LIMIT 1",
      [sessionId],
    );
    return row?.id;
  }

  /** The bytes of `sessionId`'s workspace as measured when its last turn ended. */
  async setWorkspaceBytes(sessionId: string, bytes: number): Promise<void> {
    await this.db.run('UPDATE uhp_sessions SET workspace_bytes = ? WHERE id = ?', [bytes, sessionId]);
  }

  /**
   * The bytes a principal holds on disk, as its disk quota counts them: every stored file (uploads
   * and artifacts) plus each workspace as measured at the end of its last turn. `exceptSession`
   * leaves one workspace out, for a caller that has just measured it itself.
   */
  async principalDiskBytes(principalId: string, exceptSession: string | null = null): Promise<number> {
    const files = await this.db.get<{ n: number | string | null }>(
      'SELECT SUM(bytes) AS n FROM uhp_files WHERE principal_id = ?',
      [principalId],
    );
    const workspaces = await this.db.get<{ n: number | string | null }>(
      'SELECT SUM(workspace_bytes) AS n FROM uhp_sessions WHERE principal_id = ? AND id <> ?',
      [principalId, exceptSession ?? ''],
    );
    return Number(files?.n ?? 0) + Number(workspaces?.n ?? 0);
  }

  /** The entries of `sessionId`'s workspace as counted when its last turn ended. */
  async setWorkspaceFiles(sessionId: string, files: number): Promise<void> {
    await this.db.run('UPDATE uhp_sessions SET workspace_files = ? WHERE id = ?', [files, sessionId]);
  }

  /**
   * The files a principal holds, as its file quota counts them: every stored file (uploads and
   * artifacts) plus the entries of each workspace as counted at the end of its last turn.
   * `exceptSession` leaves one workspace out, for a caller that has just counted it itself.
   */
  async principalFileCount(principalId: string, exceptSession: string | null = null): Promise<number> {
    const files = await this.db.get<{ n: number | string | null }>(
      'SELECT COUNT(*) AS n FROM uhp_files WHERE principal_id = ?',
      [principalId],
    );
    const workspaces = await this.db.get<{ n: number | string | null }>(
      'SELECT SUM(workspace_files) AS n FROM uhp_sessions WHERE principal_id = ? AND id <> ?',
      [principalId, exceptSession ?? ''],
    );
    return Number(files?.n ?? 0) + Number(workspaces?.n ?? 0);
  }

  /** How many tasks of a principal are running now, on every node. */
  async runningResponseCount(principalId: string): Promise<number> {
    const row = await this.db.get<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM uhp_responses WHERE principal_id = ? AND status = 'in_progress'",
      [principalId],
    );
    return Number(row?.n ?? 0);
  }

  async nextTurnIndex(sessionId: string): Promise<number> {
    const row = await this.db.get<{ next: number }>(
      'SELECT COALESCE(MAX(turn_index) + 1, 0) AS next FROM uhp_responses WHERE session_id = ?',
      [sessionId],
    );
    return row?.next ?? 0;
  }

  async inProgressResponses(): Promise<StoredResponse[]> {
    const rows = await this.db.all<ResponseRow>(
      "SELECT * FROM uhp_responses WHERE status = 'in_progress' ORDER BY created_at, id",
    );
    return rows.map(toResponse);
  }

  // ── events ─────────────────────────────────────────────────────────────────
  async insertEvent(responseId: string, event: StreamEvent): Promise<void> {
    await this.db.run('INSERT INTO uhp_events (response_id, sequence_number, data_json) VALUES (?, ?, ?)', [
      responseId,
      event.sequence_number,
      JSON.stringify(event),
    ]);
  }

  /**
   * Several events of one response in order, one statement per 200. On PostgreSQL each statement is
   * a round trip; on SQLite a statement runs on the event loop, so between two of them the loop
   * serves others (`setImmediate`): a turn that cites a thousand files writes thousands of events
   * without holding every other request for their whole write.
   */
  async insertEvents(responseId: string, events: readonly StreamEvent[]): Promise<void> {
    for (let start = 0; start < events.length; start += 200) {
      if (start > 0 && this.db.dialect === 'sqlite') await new Promise((resolve) => setImmediate(resolve));
      const chunk = events.slice(start, start + 200);
      await this.db.run(
        `INSERT INTO uhp_events (response_id, sequence_number, data_json) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')}`,
        chunk.flatMap((event) => [responseId, event.sequence_number, JSON.stringify(event)]),
      );
    }
  }

  /** The events after `afterSequence` in order: all of them, or the first `limit`. */
  async eventsAfter(responseId: string, afterSequence: number, limit?: number): Promise<StreamEvent[]> {
    const rows = await this.db.all<{ data_json: string }>(
      `SELECT data_json FROM uhp_events WHERE response_id = ? AND sequence_number > ? ORDER BY sequence_number${limit === undefined ? '' : ' LIMIT ?'}`,
      limit === undefined ? [responseId, afterSequence] : [responseId, afterSequence, limit],
    );
    return rows.map((row) => JSON.parse(row.data_json) as StreamEvent);
  }

  /** One event of a response's log, or undefined when it (or its response) no longer exists. */
  async eventAt(responseId: string, sequence: number): Promise<StreamEvent | undefined> {
    const row = await this.db.get<{ data_json: string }>(
      'SELECT data_json FROM uhp_events WHERE response_id = ? AND sequence_number = ?',
      [responseId, sequence],
    );
    return row ? (JSON.parse(row.data_json) as StreamEvent) : undefined;
  }

  async lastSequenceNumber(responseId: string): Promise<number> {
    const row = await this.db.get<{ last: number }>(
      'SELECT COALESCE(MAX(sequence_number), -1) AS last FROM uhp_events WHERE response_id = ?',
      [responseId],
    );
    return row?.last ?? -1;
  }

  // ── idempotency ────────────────────────────────────────────────────────────
  async findIdempotencyKey(principalId: string, key: string, notBefore: number): Promise<string | undefined> {
    const row = await this.db.get<{ response_id: string; created_at: number }>(
      'SELECT response_id, created_at FROM uhp_idempotency_keys WHERE principal_id = ? AND key = ?',
      [principalId, key],
    );
    if (!row) return undefined;
    if (row.created_at < notBefore) {
      await this.db.run('DELETE FROM uhp_idempotency_keys WHERE principal_id = ? AND key = ?', [
        principalId,
        key,
      ]);
      return undefined;
    }
    return row.response_id;
  }

  async insertIdempotencyKey(
    principalId: string,
    key: string,
    responseId: string,
    stream: boolean,
  ): Promise<void> {
    await this.db.run(
      'INSERT INTO uhp_idempotency_keys (principal_id, key, response_id, stream, created_at) VALUES (?, ?, ?, ?, ?)',
      [principalId, key, responseId, stream ? 1 : 0, Date.now()],
    );
  }

  /**
   * Serialises, until the end of the current transaction, the requests that carry the same
   * Idempotency-Key, so concurrent retries (on any node) start one task.
   */
  async lockIdempotencyKey(principalId: string, key: string): Promise<void> {
    await this.db.lock(`uhp-idempotency:${principalId}:${key}`);
  }

  // ── files ──────────────────────────────────────────────────────────────────
  async insertFile(file: StoredFile): Promise<void> {
    await this.db.run(
      'INSERT INTO uhp_files (id, principal_id, container_id, session_id, response_id, filename, media_type, bytes, purpose, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        file.id,
        file.principalId,
        file.containerId,
        file.sessionId,
        file.responseId,
        file.filename,
        file.mediaType,
        file.bytes,
        file.purpose,
        file.createdAt,
      ],
    );
  }

  async getFile(principalId: string, id: string): Promise<StoredFile | undefined> {
    const row = await this.db.get<FileRow>('SELECT * FROM uhp_files WHERE id = ? AND principal_id = ?', [
      id,
      principalId,
    ]);
    return row && toFile(row);
  }

  async getContainerFile(containerId: string, id: string): Promise<StoredFile | undefined> {
    const row = await this.db.get<FileRow>('SELECT * FROM uhp_files WHERE id = ? AND container_id = ?', [
      id,
      containerId,
    ]);
    return row && toFile(row);
  }

  async sessionFiles(sessionId: string): Promise<StoredFile[]> {
    // Insertion order: SQLite's rowid, PostgreSQL's `seq` column (the migration's insertionOrderColumn).
    const order = schemaTypes(this.db.dialect).insertionOrder;
    const rows = await this.db.all<FileRow>(
      `SELECT * FROM uhp_files WHERE session_id = ? AND purpose = 'artifact' ORDER BY ${order}`,
      [sessionId],
    );
    return rows.map(toFile);
  }

  /** How many artifacts a session holds, over all its turns. */
  async countSessionArtifacts(sessionId: string): Promise<number> {
    const row = await this.db.get<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM uhp_files WHERE session_id = ? AND purpose = 'artifact'",
      [sessionId],
    );
    return Number(row?.n ?? 0);
  }

  /**
   * One page of a session's artifacts in insertion order, after the artifact `afterId` when given;
   * `undefined` when `afterId` is not an artifact of the session (a cursor that is not ours).
   */
  async sessionFilesPage(
    sessionId: string,
    limit: number,
    afterId: string | null,
  ): Promise<StoredFile[] | undefined> {
    const order = schemaTypes(this.db.dialect).insertionOrder;
    if (afterId === null) {
      const rows = await this.db.all<FileRow>(
        `SELECT * FROM uhp_files WHERE session_id = ? AND purpose = 'artifact' ORDER BY ${order} LIMIT ?`,
        [sessionId, limit],
      );
      return rows.map(toFile);
    }
    const anchor = await this.db.get<{ position: number | string }>(
      `SELECT ${order} AS position FROM uhp_files WHERE id = ? AND session_id = ? AND purpose = 'artifact'`,
      [afterId, sessionId],
    );
    if (!anchor) return undefined;
    const rows = await this.db.all<FileRow>(
      `SELECT * FROM uhp_files WHERE session_id = ? AND purpose = 'artifact' AND ${order} > ? ORDER BY ${order} LIMIT ?`,
      [sessionId, anchor.position, limit],
    );
    return rows.map(toFile);
  }

  // ── shares ─────────────────────────────────────────────────────────────────
  /** The session's share, created with `token` when it has none (one share per session, even under races). */
  async upsertShare(
    principalId: string,
    sessionId: string,
    token: string,
  ): Promise<{ token: string; createdAt: number }> {
    await this.db.run(
      'INSERT INTO uhp_shares (token, session_id, principal_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (session_id) DO NOTHING',
      [token, sessionId, principalId, Date.now()],
    );
    const share = await this.getShare(sessionId);
    if (!share) throw new Error(`the share of session ${sessionId} vanished as it was created`);
    return share;
  }

  async getShare(sessionId: string): Promise<{ token: string; createdAt: number } | undefined> {
    const row = await this.db.get<{ token: string; created_at: number }>(
      'SELECT token, created_at FROM uhp_shares WHERE session_id = ?',
      [sessionId],
    );
    return row && { token: row.token, createdAt: row.created_at };
  }

  async sessionOfShareToken(token: string): Promise<StoredSession | undefined> {
    const row = await this.db.get<SessionRow>(
      'SELECT s.* FROM uhp_shares sh JOIN uhp_sessions s ON s.id = sh.session_id WHERE sh.token = ?',
      [token],
    );
    return row && toSession(row);
  }

  async deleteShare(sessionId: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM uhp_shares WHERE session_id = ?', [sessionId])) > 0;
  }

  // ── task leases ────────────────────────────────────────────────────────────
  async insertLease(responseId: string, nodeId: string, expiresAt: number): Promise<void> {
    await this.db.run('INSERT INTO uhp_task_leases (response_id, node_id, expires_at) VALUES (?, ?, ?)', [
      responseId,
      nodeId,
      expiresAt,
    ]);
  }

  /** Extends every lease this node holds (its heartbeat); answers how many it holds. */
  renewLeases(nodeId: string, expiresAt: number): Promise<number> {
    return this.db.run('UPDATE uhp_task_leases SET expires_at = ? WHERE node_id = ?', [expiresAt, nodeId]);
  }

  /**
   * Takes over up to `limit` leases that expired before `now` (their node stopped renewing them),
   * each now held by `nodeId` until `expiresAt`. In PostgreSQL `FOR UPDATE SKIP LOCKED` hands each
   * expired lease to one node however many sweep at once.
   */
  claimExpiredLeases(nodeId: string, now: number, expiresAt: number, limit = 20): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const skipLocked = tx.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
      const rows = await tx.all<{ response_id: string }>(
        `SELECT response_id FROM uhp_task_leases WHERE expires_at < ? ORDER BY expires_at LIMIT ?${skipLocked}`,
        [now, limit],
      );
      for (const row of rows)
        await tx.run('UPDATE uhp_task_leases SET node_id = ?, expires_at = ? WHERE response_id = ?', [
          nodeId,
          expiresAt,
          row.response_id,
        ]);
      return rows.map((row) => row.response_id);
    });
  }

  /** Records that a task (or every running task of a session) should stop; answers how many. */
  requestCancel(target: { responseId: string } | { sessionId: string }): Promise<number> {
    return 'responseId' in target
      ? this.db.run('UPDATE uhp_task_leases SET cancel_requested = 1 WHERE response_id = ?', [
          target.responseId,
        ])
      : this.db.run(
          'UPDATE uhp_task_leases SET cancel_requested = 1 WHERE response_id IN (SELECT id FROM uhp_responses WHERE session_id = ?)',
          [target.sessionId],
        );
  }

  /** The tasks held by `nodeId` whose cancellation was asked for. */
  async cancelRequests(nodeId: string): Promise<string[]> {
    const rows = await this.db.all<{ response_id: string }>(
      'SELECT response_id FROM uhp_task_leases WHERE node_id = ? AND cancel_requested = 1',
      [nodeId],
    );
    return rows.map((row) => row.response_id);
  }

  /**
   * Ends the lease of a task that reached its terminal state, inside that state's transaction.
   * `foreign`: another node took the task over (this node was presumed dead), so this node must not
   * write a terminal state; `absent`: a response from before leases, or one never leased.
   */
  async releaseLease(responseId: string, nodeId: string): Promise<'released' | 'absent' | 'foreign'> {
    const forUpdate = this.db.dialect === 'postgres' ? ' FOR UPDATE' : '';
    const row = await this.db.get<{ node_id: string }>(
      `SELECT node_id FROM uhp_task_leases WHERE response_id = ?${forUpdate}`,
      [responseId],
    );
    if (!row) return 'absent';
    if (row.node_id !== nodeId) return 'foreign';
    await this.db.run('DELETE FROM uhp_task_leases WHERE response_id = ?', [responseId]);
    return 'released';
  }
}
