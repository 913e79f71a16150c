/**
 * The console's copies of the team gate's wire shapes (issue 32; the contract is
 * packages/packs/tool-gate/src/team/team-report.ts and the server's routes under /v1/gate). The
 * console speaks HTTP only and depends on no server package, so it declares what it reads.
 */

export type TeamVerdict = 'ALLOW' | 'DENY' | 'ASK';

/** What became of a judged call: a person's answer for an ASK, the gate's for the rest. */
export type TeamOutcome = 'allowed' | 'denied' | 'approved' | 'declined' | 'pending' | 'none';

/** The call as the hook redacted it on the developer's machine. */
export interface TeamCall {
  command?: string;
  path?: string;
  url?: string;
  summary: string;
}

export interface TeamVerdictRecord {
  kind: 'verdict';
  id: string;
  time: string;
  host: string;
  session: string | null;
  tool: string;
  call_key: string;
  program: string | null;
  call: TeamCall;
  project: string | null;
  verdict: TeamVerdict | null;
  effective: TeamVerdict | null;
  rule: number | null;
  decided_by: 'gate' | 'policy' | 'team' | 'none';
  reason: string;
  answers: Record<string, unknown> | null;
  pack: { name: string; version: string; sha256: string };
  call_sha256: string;
  team_policy_sha256: string | null;
  model: string | null;
}

/** One row of `GET /v1/gate/records`. */
export interface TeamRecordRow {
  seq: number;
  principal: { id: string; name: string };
  received_at: string;
  record: TeamVerdictRecord;
  outcome: TeamOutcome;
  outcome_at: string | null;
}

export interface TeamRecordPage {
  data: TeamRecordRow[];
  has_more: boolean;
  /** The cursor for the next (older) page; null on the last one. */
  next_after: string | number | null;
}

export interface TeamDayCount {
  day: string;
  ALLOW: number;
  DENY: number;
  ASK: number;
}

export interface TeamAskedProgram {
  program: string;
  asked: number;
  approved: number;
  declined: number;
}

/** `GET /v1/gate/stats`. `rate` is approved ÷ (approved + declined); null before any answer. */
export interface TeamStats {
  per_day: TeamDayCount[];
  asked_programs: TeamAskedProgram[];
  approval: { asked: number; approved: number; declined: number; pending: number; rate: number | null };
}

export interface TeamSuggestion {
  id: string;
  rule: string;
  tool: string;
  asked: number;
  approved: number;
  examples: string[];
  status: 'suggested' | 'accepted' | 'rejected';
  decided_at: string | null;
  /** The operator who accepted or rejected it (a principal id, or the principal as an object). */
  decided_by: string | { id: string; name: string } | null;
}

export interface TeamPolicy {
  version: 1;
  allow: string[];
  report_cwd: 'project' | 'full';
  sha256: string;
  updated_at: string | null;
}
