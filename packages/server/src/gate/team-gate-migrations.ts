import { type Migration, schemaMigration } from '@arbiter/storage';

/**
 * The team gate's tables (issue 32, docs/tool-gate.md "The gate for a team").
 *
 * `gate_team_entries` is every principal's hash-chained audit log of reported records: `seq`,
 * `time`, `prev`, `record` and `sha256` are the chain (the shape and hashing of the pack's
 * `AuditEntry`); the other columns repeat members of the record so the console's filters are
 * indexed queries, and `GET /v1/gate/audit/verify` checks they still agree with the record.
 * `outcome_ms` is not part of the chain: it is where an outcome record folded into the ASK verdict
 * it answers, set once. `id` orders rows across principals for the operator's newest-first pages.
 *
 * `gate_team_suggestions` holds the operator's decisions only; suggestions themselves are
 * computed from the entries, so a rule is never suggested from stale counts.
 */
export const teamGateMigrations: readonly Migration[] = [
  schemaMigration(
    '0300-gate-team',
    ({ int64, serialKey }) => `
      CREATE TABLE gate_team_entries (
        id ${serialKey},
        principal_id TEXT NOT NULL,
        seq ${int64} NOT NULL,
        time TEXT NOT NULL,
        prev TEXT NOT NULL,
        record TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        received_ms ${int64} NOT NULL,
        record_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        host TEXT NOT NULL,
        tool TEXT NOT NULL,
        program TEXT,
        effective TEXT,
        session_key TEXT NOT NULL,
        call_key TEXT NOT NULL,
        suggest_rule TEXT,
        outcome_ms ${int64},
        UNIQUE (principal_id, seq),
        UNIQUE (principal_id, record_id)
      );
      CREATE INDEX gate_team_entries_call ON gate_team_entries (principal_id, call_key, session_key, seq);
      CREATE INDEX gate_team_entries_rule ON gate_team_entries (suggest_rule);
      CREATE INDEX gate_team_entries_received ON gate_team_entries (received_ms);
      CREATE TABLE gate_team_suggestions (
        id TEXT PRIMARY KEY,
        rule TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL CHECK (status IN ('accepted', 'rejected')),
        decided_ms ${int64} NOT NULL,
        decided_by_id TEXT NOT NULL,
        decided_by_name TEXT NOT NULL,
        policy_changed_ms ${int64}
      );
    `,
  ),
];
