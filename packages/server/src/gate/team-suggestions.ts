import { createHash } from 'node:crypto';
import type { Principal } from '@arbiter/auth';
import type { OutcomeJudgement, TeamGateStore } from './team-gate-store.js';

/** One entry of `GET /v1/gate/suggestions` (docs/api.md). */
export interface TeamSuggestion {
  readonly id: string;
  readonly rule: string;
  /** The tool the rule names: `Bash` or `WebFetch`. */
  readonly tool: string;
  readonly asked: number;
  readonly approved: number;
  readonly examples: string[];
  readonly status: 'suggested' | 'accepted' | 'rejected';
  readonly decided_at: string | null;
  readonly decided_by: Principal | null;
}

/** A suggestion's id: the same rule always has the same id, so a decision outlives the counts. */
export function suggestionIdOf(rule: string): string {
  return `sug_${createHash('sha256').update(rule).digest('hex').slice(0, 24)}`;
}

/**
 * The suggestions: every kind of call asked and approved at least `suggestAfter` times across
 * principals and never declined, and every rule an operator has decided on (with its current
 * counts, so an accepted rule that is now allowed without asking still shows what led to it).
 * An ASK still pending counts for neither side.
 */
export async function listTeamSuggestions(
  store: TeamGateStore,
  suggestAfter: number,
  judgement: OutcomeJudgement,
): Promise<TeamSuggestion[]> {
  const [counts, decisions] = await Promise.all([store.suggestionCounts(judgement), store.decisions()]);
  const decided = new Map(decisions.map((decision) => [decision.rule, decision]));
  const byRule = new Map(counts.map((kind) => [kind.rule, kind]));
  const rules = new Set([
    ...counts.filter((kind) => kind.declined === 0 && kind.approved >= suggestAfter).map((kind) => kind.rule),
    ...decided.keys(),
  ]);
  const suggestions: TeamSuggestion[] = [];
  for (const rule of [...rules].sort()) {
    const kind = byRule.get(rule);
    const decision = decided.get(rule);
    suggestions.push({
      id: suggestionIdOf(rule),
      rule,
      tool: rule.slice(0, rule.indexOf('(')),
      asked: kind?.asked ?? 0,
      approved: kind?.approved ?? 0,
      examples: await store.suggestionExamples(rule),
      status: decision?.status ?? 'suggested',
      decided_at: decision ? new Date(decision.decidedMs).toISOString() : null,
      decided_by: decision?.decidedBy ?? null,
    });
  }
  return suggestions;
}
