import { type Migration, schemaMigration } from '@arbiter/storage';

/** UHP tables. Objects carry their owner (`principal_id`) so every query is scoped to it. */
export const uhpMigrations: readonly Migration[] = [
  // BIGINT for milliseconds in PostgreSQL; `seq` keeps the files' insertion order there, which
  // SQLite reads from `rowid`.
  schemaMigration(
    '0100-uhp-core',
    ({ int64, insertionOrderColumn, withoutRowid }) => `
      CREATE TABLE uhp_harnesses (
        id TEXT PRIMARY KEY,
        principal_id TEXT NOT NULL,
        name TEXT NOT NULL,
        base TEXT NOT NULL,
        config_json TEXT NOT NULL,
        is_default INTEGER NOT NULL DEFAULT 0,
        created_at ${int64} NOT NULL,
        deleted_at ${int64}
      );
      CREATE INDEX uhp_harnesses_principal ON uhp_harnesses (principal_id, created_at);
      CREATE TABLE uhp_sessions (
        id TEXT PRIMARY KEY,
        principal_id TEXT NOT NULL,
        harness_id TEXT NOT NULL,
        container_id TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL,
        created_at ${int64} NOT NULL,
        updated_at ${int64} NOT NULL
      );
      CREATE INDEX uhp_sessions_principal ON uhp_sessions (principal_id, created_at, id);
      CREATE TABLE uhp_responses (
        id TEXT PRIMARY KEY,
        principal_id TEXT NOT NULL,
        session_id TEXT NOT NULL REFERENCES uhp_sessions (id) ON DELETE CASCADE,
        harness_id TEXT NOT NULL,
        turn_index INTEGER NOT NULL,
        status TEXT NOT NULL,
        body_json TEXT NOT NULL,
        input_json TEXT NOT NULL,
        created_at ${int64} NOT NULL,
        hidden INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX uhp_responses_session ON uhp_responses (session_id, turn_index);
      CREATE INDEX uhp_responses_status ON uhp_responses (status);
      CREATE TABLE uhp_events (
        response_id TEXT NOT NULL REFERENCES uhp_responses (id) ON DELETE CASCADE,
        sequence_number INTEGER NOT NULL,
        data_json TEXT NOT NULL,
        PRIMARY KEY (response_id, sequence_number)
      )${withoutRowid};
      CREATE TABLE uhp_idempotency_keys (
        principal_id TEXT NOT NULL,
        key TEXT NOT NULL,
        response_id TEXT NOT NULL,
        stream INTEGER NOT NULL,
        created_at ${int64} NOT NULL,
        PRIMARY KEY (principal_id, key)
      );
      CREATE TABLE uhp_files (
        id TEXT PRIMARY KEY,
        ${insertionOrderColumn}
        principal_id TEXT NOT NULL,
        container_id TEXT,
        session_id TEXT REFERENCES uhp_sessions (id) ON DELETE CASCADE,
        response_id TEXT,
        filename TEXT NOT NULL,
        media_type TEXT NOT NULL,
        bytes ${int64} NOT NULL,
        purpose TEXT NOT NULL,
        created_at ${int64} NOT NULL
      );
      CREATE INDEX uhp_files_session ON uhp_files (session_id, created_at);
      CREATE TABLE uhp_shares (
        token TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES uhp_sessions (id) ON DELETE CASCADE,
        principal_id TEXT NOT NULL,
        created_at ${int64} NOT NULL
      );
      CREATE UNIQUE INDEX uhp_shares_session ON uhp_shares (session_id);
    `,
  ),
  // Every running task is held by one node under a lease that node renews; a lease that expires
  // means its node is gone, and another node ends the task (docs/deployment.md). A cancellation
  // asked on another node is recorded on the lease, where the running node's heartbeat finds it
  // even if the notification that should have told it at once was lost.
  schemaMigration(
    '0101-uhp-task-leases',
    ({ int64 }) => `
      CREATE TABLE uhp_task_leases (
        response_id TEXT PRIMARY KEY REFERENCES uhp_responses (id) ON DELETE CASCADE,
        node_id TEXT NOT NULL,
        expires_at ${int64} NOT NULL,
        cancel_requested INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX uhp_task_leases_expiry ON uhp_task_leases (expires_at);
      CREATE INDEX uhp_task_leases_node ON uhp_task_leases (node_id);
    `,
  ),
  // A principal's disk quota counts its stored files and its workspaces. A workspace's bytes are
  // measured when its turn ends (the artifact walk already stats every file) and kept here, so the
  // quota check of a new task reads two sums instead of walking every workspace of the principal.
  schemaMigration(
    '0102-uhp-workspace-bytes',
    ({ int64 }) => `
      ALTER TABLE uhp_sessions ADD COLUMN workspace_bytes ${int64} NOT NULL DEFAULT 0;
      CREATE INDEX uhp_files_principal ON uhp_files (principal_id);
    `,
  ),
  // A principal's file quota counts its stored files and the entries of its workspaces, walked when
  // each turn ends (the same walk that measures the bytes), kept here beside the bytes.
  schemaMigration(
    '0103-uhp-workspace-files',
    ({ int64 }) => `
      ALTER TABLE uhp_sessions ADD COLUMN workspace_files ${int64} NOT NULL DEFAULT 0;
    `,
  ),
];
