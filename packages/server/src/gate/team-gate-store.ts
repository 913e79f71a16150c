import type { Principal } from '@arbiter/auth';
import type { SqlDatabase } from '@arbiter/storage';
import {
  AUDIT_GENESIS,
  canonicalSha256,
  type TeamRecord,
  type TeamVerdictRecord,
} from '@arbiter/tool-gate/team';
import { type TeamOutcome, teamRecordOutcome } from './team-record-outcome.js';
import { suggestionRuleOf } from './team-suggestion-rule.js';

/** The filters of `GET /v1/gate/records` and `/stats`; every member narrows, none widens. */
export interface TeamRecordFilter {
  /** One principal's rows; undefined for every principal (an operator's view). */
  readonly principalId?: string | undefined;
  readonly host?: string | undefined;
  /** The effective verdict (what the host was told). */
  readonly verdict?: 'ALLOW' | 'DENY' | 'ASK' | undefined;
  readonly tool?: string | undefined;
  readonly program?: string | undefined;
  /** Received at or after, in milliseconds. */
  readonly sinceMs?: number | undefined;
  /** Received before, in milliseconds. */
  readonly untilMs?: number | undefined;
}

/** How outcomes are judged: the clock and the declined window. */
export interface OutcomeJudgement {
  readonly nowMs: number;
  readonly declineAfterMs: number;
}

export interface TeamRecordRow {
  readonly seq: number;
  readonly principal: Principal;
  readonly received_at: string;
  readonly record: TeamVerdictRecord;
  readonly outcome: TeamOutcome;
  readonly outcome_at: string | null;
}

export interface TeamRecordPage {
  readonly data: TeamRecordRow[];
  readonly has_more: boolean;
  readonly next_after: string | null;
}

export interface TeamStats {
  readonly per_day: { day: string; ALLOW: number; DENY: number; ASK: number }[];
  readonly asked_programs: { program: string; asked: number; approved: number; declined: number }[];
  readonly approval: {
    asked: number;
    approved: number;
    declined: number;
    pending: number;
    rate: number | null;
  };
}

export type TeamChainVerification =
  | { readonly ok: true; readonly entries: number; readonly head: string }
  | { readonly ok: false; readonly entries: number; readonly seq: number; readonly problem: string };

export interface TeamAppendResult {
  readonly accepted: number;
  readonly duplicates: number;
  readonly head: string;
}

/** A kind of call with its counts: a suggestion when it qualifies, or one an operator decided. */
export interface TeamSuggestionCounts {
  readonly rule: string;
  readonly asked: number;
  readonly approved: number;
  readonly declined: number;
}

export interface TeamSuggestionDecision {
  readonly id: string;
  readonly rule: string;
  readonly status: 'accepted' | 'rejected';
  readonly decidedMs: number;
  readonly decidedBy: Principal;
}

interface EntryRow {
  id: number;
  principal_id: string;
  principal_name: string | null;
  seq: number;
  time: string;
  prev: string;
  record: string;
  sha256: string;
  received_ms: number;
  record_id: string;
  kind: string;
  host: string;
  tool: string;
  program: string | null;
  effective: string | null;
  session_key: string;
  call_key: string;
  suggest_rule: string | null;
  outcome_ms: number | null;
}

/** The most asked programs the stats list; the console plots a handful. */
export const STATS_PROGRAMS_LIMIT = 20;
/** Entries `verify` reads per query, so a long chain is walked without holding it in memory. */
const VERIFY_PAGE = 1_000;
/** How many recent calls of a kind are read to find three different examples. */
const EXAMPLE_SCAN = 50;
export const SUGGESTION_EXAMPLES = 3;

const DAY_MS = 86_400_000;

/** A statement parameter of the filters. */
type Param = string | number | null;

/**
 * Every principal's team gate audit log in the server's database (SQLite or PostgreSQL), the
 * outcomes folded into the verdicts they answer, and the operator's decisions on suggested rules.
 * Every read names its principal or is an operator's; the routes decide which.
 */
export class TeamGateStore {
  readonly #db: SqlDatabase;

  constructor(db: SqlDatabase) {
    this.#db = db;
  }

  /**
   * Appends the records to the principal's chain in order, each stamped with the one receive
   * time `now`. A record id the principal already stored (or that repeats in the batch) is a
   * duplicate and is not appended, so a hook that replays its queue after a lost answer changes
   * nothing. An outcome folds into the principal's latest verdict with the same session and call
   * key, when that verdict is an ASK with no outcome yet.
   */
  async append(principalId: string, records: readonly TeamRecord[], now: Date): Promise<TeamAppendResult> {
    const time = now.toISOString();
    const receivedMs = now.getTime();
    return this.#db.transaction(async (tx) => {
      // One appender per principal at a time, across nodes: the chain has one head.
      await tx.lock(`arbiter-gate-team:${principalId}`);
      const last = await tx.get<{ seq: number; sha256: string }>(
        'SELECT seq, sha256 FROM gate_team_entries WHERE principal_id = ? ORDER BY seq DESC LIMIT 1',
        [principalId],
      );
      let seq = last === undefined ? 0 : Number(last.seq);
      let prev = last?.sha256 ?? AUDIT_GENESIS;
      const ids = [...new Set(records.map((record) => record.id))];
      const known = new Set(
        (
          await tx.all<{ record_id: string }>(
            `SELECT record_id FROM gate_team_entries WHERE principal_id = ? AND record_id IN (${ids.map(() => '?').join(', ')})`,
            [principalId, ...ids],
          )
        ).map((row) => row.record_id),
      );
      let accepted = 0;
      for (const record of records) {
        if (known.has(record.id)) continue;
        known.add(record.id);
        seq += 1;
        const body = { seq, time, prev, record };
        const sha256 = canonicalSha256(body);
        const sessionKey = record.session ?? '';
        const verdict = record.kind === 'verdict' ? record : null;
        await tx.run(
          `INSERT INTO gate_team_entries (principal_id, seq, time, prev, record, sha256, received_ms, record_id,
             kind, host, tool, program, effective, session_key, call_key, suggest_rule)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            principalId,
            seq,
            time,
            prev,
            JSON.stringify(record),
            sha256,
            receivedMs,
            record.id,
            record.kind,
            record.host,
            record.tool,
            verdict?.program ?? null,
            verdict?.effective ?? null,
            sessionKey,
            record.call_key,
            verdict?.effective === 'ASK' ? suggestionRuleOf(record.tool, verdict.call) : null,
          ],
        );
        if (record.kind === 'outcome') {
          const answered = await tx.get<{ seq: number; effective: string | null; outcome_ms: number | null }>(
            `SELECT seq, effective, outcome_ms FROM gate_team_entries
             WHERE principal_id = ? AND call_key = ? AND session_key = ? AND kind = 'verdict' AND seq < ?
             ORDER BY seq DESC LIMIT 1`,
            [principalId, record.call_key, sessionKey, seq],
          );
          if (answered?.effective === 'ASK' && answered.outcome_ms === null)
            await tx.run('UPDATE gate_team_entries SET outcome_ms = ? WHERE principal_id = ? AND seq = ?', [
              receivedMs,
              principalId,
              answered.seq,
            ]);
        }
        prev = sha256;
        accepted += 1;
      }
      return { accepted, duplicates: records.length - accepted, head: prev };
    });
  }

  /**
   * Walks the principal's chain from the genesis: every entry must follow the one before it
   * (`seq`, `prev`), hash to its `sha256`, and agree with the columns the filters read. Reports
   * the first entry that does not.
   */
  async verify(principalId: string): Promise<TeamChainVerification> {
    let prev = AUDIT_GENESIS;
    let expected = 1;
    for (;;) {
      const rows = await this.#db.all<EntryRow>(
        `SELECT * FROM gate_team_entries WHERE principal_id = ? AND seq >= ? ORDER BY seq LIMIT ${VERIFY_PAGE}`,
        [principalId, expected],
      );
      for (const row of rows) {
        const seq = Number(row.seq);
        const fail = (problem: string): TeamChainVerification => ({
          ok: false,
          entries: expected - 1,
          seq,
          problem,
        });
        if (seq !== expected)
          return fail(`entry ${seq} follows entry ${expected - 1}: an entry is missing or out of order`);
        if (row.prev !== prev) return fail(`entry ${seq} does not name the hash of the entry before it`);
        let record: TeamRecord;
        try {
          record = JSON.parse(row.record) as TeamRecord;
        } catch {
          return fail(`entry ${seq} holds a record that is not JSON`);
        }
        if (canonicalSha256({ seq, time: row.time, prev: row.prev, record }) !== row.sha256)
          return fail(`entry ${seq} does not match its hash: it was edited after it was appended`);
        const disagreeing = disagreeingColumn(row, record);
        if (disagreeing !== null)
          return fail(`entry ${seq}'s ${disagreeing} column disagrees with its record: the row was edited`);
        prev = row.sha256;
        expected += 1;
      }
      if (rows.length < VERIFY_PAGE) return { ok: true, entries: expected - 1, head: prev };
    }
  }

  /** The head of the principal's chain (the genesis when it has no entry). */
  async head(principalId: string): Promise<string> {
    const last = await this.#db.get<{ sha256: string }>(
      'SELECT sha256 FROM gate_team_entries WHERE principal_id = ? ORDER BY seq DESC LIMIT 1',
      [principalId],
    );
    return last?.sha256 ?? AUDIT_GENESIS;
  }

  /** Verdict rows, newest first, `limit` per page after the cursor `afterId`. */
  async records(
    filter: TeamRecordFilter,
    page: { limit: number; afterId?: number | undefined },
    judgement: OutcomeJudgement,
  ): Promise<TeamRecordPage> {
    const where = filterSql(filter);
    if (page.afterId !== undefined) {
      where.clauses.push('e.id < ?');
      where.params.push(page.afterId);
    }
    const rows = await this.#db.all<EntryRow>(
      `SELECT e.*, p.name AS principal_name FROM gate_team_entries e LEFT JOIN principals p ON p.id = e.principal_id
       WHERE ${where.clauses.join(' AND ')} ORDER BY e.id DESC LIMIT ${page.limit + 1}`,
      where.params,
    );
    const shown = rows.slice(0, page.limit);
    return {
      data: shown.map((row) => rowOf(row, judgement)),
      has_more: rows.length > page.limit,
      next_after: rows.length > page.limit && shown.length > 0 ? String(shown.at(-1)?.id) : null,
    };
  }

  /** Verdicts per day (UTC), the most asked programs and the approval of ASKs, over the filter. */
  async stats(filter: TeamRecordFilter, judgement: OutcomeJudgement): Promise<TeamStats> {
    const cutoff = judgement.nowMs - judgement.declineAfterMs;
    const where = filterSql(filter);
    const conditions = where.clauses.join(' AND ');
    const days = await this.#db.all<{ day: number; effective: string; n: number }>(
      `SELECT e.received_ms / ${DAY_MS} AS day, e.effective, COUNT(*) AS n FROM gate_team_entries e
       WHERE ${conditions} AND e.effective IS NOT NULL GROUP BY e.received_ms / ${DAY_MS}, e.effective`,
      where.params,
    );
    const perDay = new Map<number, { day: string; ALLOW: number; DENY: number; ASK: number }>();
    for (const row of days) {
      const day = Math.floor(Number(row.day));
      const entry = perDay.get(day) ?? {
        day: new Date(day * DAY_MS).toISOString().slice(0, 10),
        ALLOW: 0,
        DENY: 0,
        ASK: 0,
      };
      if (row.effective === 'ALLOW' || row.effective === 'DENY' || row.effective === 'ASK')
        entry[row.effective] += Number(row.n);
      perDay.set(day, entry);
    }
    const answered = `SUM(CASE WHEN e.outcome_ms IS NOT NULL THEN 1 ELSE 0 END) AS approved,
       SUM(CASE WHEN e.outcome_ms IS NULL AND e.received_ms < ? THEN 1 ELSE 0 END) AS declined`;
    const programs = await this.#db.all<{
      program: string;
      asked: number;
      approved: number;
      declined: number;
    }>(
      `SELECT e.program, COUNT(*) AS asked, ${answered} FROM gate_team_entries e
       WHERE ${conditions} AND e.effective = 'ASK' AND e.program IS NOT NULL
       GROUP BY e.program ORDER BY COUNT(*) DESC, e.program LIMIT ${STATS_PROGRAMS_LIMIT}`,
      [cutoff, ...where.params],
    );
    const totals = await this.#db.get<{ asked: number; approved: number | null; declined: number | null }>(
      `SELECT COUNT(*) AS asked, ${answered} FROM gate_team_entries e WHERE ${conditions} AND e.effective = 'ASK'`,
      [cutoff, ...where.params],
    );
    const asked = Number(totals?.asked ?? 0);
    const approved = Number(totals?.approved ?? 0);
    const declined = Number(totals?.declined ?? 0);
    return {
      per_day: [...perDay.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry),
      asked_programs: programs.map((row) => ({
        program: row.program,
        asked: Number(row.asked),
        approved: Number(row.approved),
        declined: Number(row.declined),
      })),
      approval: {
        asked,
        approved,
        declined,
        pending: asked - approved - declined,
        rate: approved + declined === 0 ? null : approved / (approved + declined),
      },
    };
  }

  /** Every kind of asked call across principals, with its counts (those with a rule only). */
  async suggestionCounts(judgement: OutcomeJudgement): Promise<TeamSuggestionCounts[]> {
    const rows = await this.#db.all<{ rule: string; asked: number; approved: number; declined: number }>(
      `SELECT e.suggest_rule AS rule, COUNT(*) AS asked,
         SUM(CASE WHEN e.outcome_ms IS NOT NULL THEN 1 ELSE 0 END) AS approved,
         SUM(CASE WHEN e.outcome_ms IS NULL AND e.received_ms < ? THEN 1 ELSE 0 END) AS declined
       FROM gate_team_entries e WHERE e.suggest_rule IS NOT NULL AND e.kind = 'verdict' AND e.effective = 'ASK'
       GROUP BY e.suggest_rule ORDER BY e.suggest_rule`,
      [judgement.nowMs - judgement.declineAfterMs],
    );
    return rows.map((row) => ({
      rule: row.rule,
      asked: Number(row.asked),
      approved: Number(row.approved),
      declined: Number(row.declined),
    }));
  }

  /** Up to three different recent calls of a kind, as the hooks redacted them. */
  async suggestionExamples(rule: string): Promise<string[]> {
    const rows = await this.#db.all<{ record: string }>(
      `SELECT record FROM gate_team_entries WHERE suggest_rule = ? AND kind = 'verdict' AND effective = 'ASK'
       ORDER BY id DESC LIMIT ${EXAMPLE_SCAN}`,
      [rule],
    );
    const examples: string[] = [];
    for (const row of rows) {
      const { call } = JSON.parse(row.record) as TeamVerdictRecord;
      const text = call.command ?? call.url ?? call.summary;
      if (!examples.includes(text)) examples.push(text);
      if (examples.length === SUGGESTION_EXAMPLES) break;
    }
    return examples;
  }

  async decisions(): Promise<TeamSuggestionDecision[]> {
    const rows = await this.#db.all<{
      id: string;
      rule: string;
      status: 'accepted' | 'rejected';
      decided_ms: number;
      decided_by_id: string;
      decided_by_name: string;
    }>(
      'SELECT id, rule, status, decided_ms, decided_by_id, decided_by_name FROM gate_team_suggestions ORDER BY rule',
    );
    return rows.map((row) => ({
      id: row.id,
      rule: row.rule,
      status: row.status,
      decidedMs: Number(row.decided_ms),
      decidedBy: { id: row.decided_by_id, name: row.decided_by_name },
    }));
  }

  /**
   * Records an operator's decision. `policy_changed_ms` moves only when the decision changes the
   * set of accepted rules, so the policy's `updated_at` says when the served rules last changed.
   */
  async decide(
    id: string,
    rule: string,
    status: 'accepted' | 'rejected',
    by: Principal,
    now: Date,
  ): Promise<TeamSuggestionDecision> {
    const decidedMs = now.getTime();
    await this.#db.transaction(async (tx) => {
      await tx.lock('arbiter-gate-team-policy');
      const before = await tx.get<{ status: string }>(
        'SELECT status FROM gate_team_suggestions WHERE id = ?',
        [id],
      );
      const wasAccepted = before?.status === 'accepted';
      const policyChanged = wasAccepted !== (status === 'accepted');
      if (before === undefined)
        await tx.run(
          `INSERT INTO gate_team_suggestions (id, rule, status, decided_ms, decided_by_id, decided_by_name, policy_changed_ms)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
          [id, rule, status, decidedMs, by.id, by.name, policyChanged ? decidedMs : null],
        );
      else
        await tx.run(
          `UPDATE gate_team_suggestions SET status = ?, decided_ms = ?, decided_by_id = ?, decided_by_name = ?,
             policy_changed_ms = ${policyChanged ? '?' : 'policy_changed_ms'} WHERE id = ?`,
          policyChanged
            ? [status, decidedMs, by.id, by.name, decidedMs, id]
            : [status, decidedMs, by.id, by.name, id],
        );
    });
    return { id, rule, status, decidedMs, decidedBy: by };
  }

  /** The accepted rules, in a stable order (the policy's hash must not depend on insertion). */
  async acceptedRules(): Promise<{ rules: string[]; updatedMs: number | null }> {
    const rows = await this.#db.all<{ rule: string }>(
      "SELECT rule FROM gate_team_suggestions WHERE status = 'accepted' ORDER BY rule",
    );
    const changed = await this.#db.get<{ at: number | null }>(
      'SELECT MAX(policy_changed_ms) AS at FROM gate_team_suggestions',
    );
    return {
      rules: rows.map((row) => row.rule),
      updatedMs: changed?.at === null || changed?.at === undefined ? null : Number(changed.at),
    };
  }
}

function filterSql(filter: TeamRecordFilter): { clauses: string[]; params: Param[] } {
  const clauses = ["e.kind = 'verdict'"];
  const params: Param[] = [];
  const add = (clause: string, value: Param | undefined) => {
    if (value === undefined) return;
    clauses.push(clause);
    params.push(value);
  };
  add('e.principal_id = ?', filter.principalId);
  add('e.host = ?', filter.host);
  add('e.effective = ?', filter.verdict);
  add('e.tool = ?', filter.tool);
  add('e.program = ?', filter.program);
  add('e.received_ms >= ?', filter.sinceMs);
  add('e.received_ms < ?', filter.untilMs);
  return { clauses, params };
}

function rowOf(row: EntryRow, judgement: OutcomeJudgement): TeamRecordRow {
  const record = JSON.parse(row.record) as TeamVerdictRecord;
  const outcomeMs = row.outcome_ms === null ? null : Number(row.outcome_ms);
  return {
    seq: Number(row.seq),
    principal: { id: row.principal_id, name: row.principal_name ?? row.principal_id },
    received_at: row.time,
    record,
    outcome: teamRecordOutcome(
      { effective: record.effective, outcomeMs, receivedMs: Number(row.received_ms) },
      judgement.nowMs,
      judgement.declineAfterMs,
    ),
    outcome_at: outcomeMs === null ? null : new Date(outcomeMs).toISOString(),
  };
}

/** The first filter column that no longer says what the record says, or null. */
function disagreeingColumn(row: EntryRow, record: TeamRecord): string | null {
  const verdict = record.kind === 'verdict' ? record : null;
  const expected: [string, unknown, unknown][] = [
    ['record_id', row.record_id, record.id],
    ['kind', row.kind, record.kind],
    ['host', row.host, record.host],
    ['tool', row.tool, record.tool],
    ['program', row.program, verdict?.program ?? null],
    ['effective', row.effective, verdict?.effective ?? null],
    ['session_key', row.session_key, record.session ?? ''],
    ['call_key', row.call_key, record.call_key],
  ];
  return expected.find(([, column, value]) => column !== value)?.[0] ?? null;
}
