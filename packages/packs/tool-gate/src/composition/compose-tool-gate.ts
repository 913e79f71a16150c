import type { ToolGateThresholds } from '../pack/tool-gate-thresholds.js';
import type { ToolGateAnswers } from './tool-gate-answers.js';

export type ToolGateVerdictValue = 'ALLOW' | 'DENY' | 'ASK';

/** What the static policy and the permission manager say before the service is asked. */
export type PolicyDecision = 'allow' | 'ask' | 'deny' | 'none';

/**
 * The composition outcome. `rule` is the number of the design note's rule that fired, or null
 * when no rule decided (no opinion); `decided_by` says whether the gate, the existing policy or
 * a team's accepted allow rule produced `verdict`.
 */
export interface ToolGateComposition {
  readonly verdict: ToolGateVerdictValue | null;
  readonly rule: 1 | 2 | 3 | 4 | 5 | 6 | null;
  readonly decided_by: 'gate' | 'policy' | 'team' | 'none';
  readonly reason: string;
}

export type ComposeInput =
  | {
      readonly policy: PolicyDecision;
      readonly policyReason?: string;
      readonly skipped: false;
      readonly answers: ToolGateAnswers;
      /**
       * The team policy's allow rule that covers the call (docs/tool-gate.md "The gate for a
       * team"), or null. It can only turn the analysis's ASK into ALLOW.
       */
      readonly teamAllow?: string | null;
    }
  | {
      readonly policy: PolicyDecision;
      readonly policyReason?: string;
      readonly skipped: true;
      readonly skipReason: string;
    };

const format = (value: number): string => String(Math.round(value * 1000) / 1000);

/**
 * Composes the static policy and the six answers into a verdict: rules 1–6 of the design note,
 * in order, first match wins (rule 7 runs inside the tool, see `guardGitPush`). When no rule
 * decides, the existing policy decides and the record says so.
 */
export function composeToolGate(input: ComposeInput, thresholds: ToolGateThresholds): ToolGateComposition {
  if (input.policy === 'deny') {
    return {
      verdict: 'DENY',
      rule: 1,
      decided_by: 'policy',
      reason: input.policyReason ?? 'denied by the static policy or the permission manager',
    };
  }
  if (input.skipped) {
    return fallBackToPolicy(
      input.policy,
      6,
      `gate skipped (${input.skipReason}); ${policyPhrase(input.policy)}`,
    );
  }
  const gate = composeAnswers(input.answers, thresholds);
  if (gate === null) {
    return fallBackToPolicy(input.policy, null, `no opinion from the gate; ${policyPhrase(input.policy)}`);
  }
  // A user's ask rule keeps its meaning: the gate may deny more, never allow more.
  if (input.policy === 'ask' && gate.verdict === 'ALLOW') {
    return {
      verdict: 'ASK',
      rule: gate.rule,
      decided_by: 'policy',
      reason: `${gate.reason}, but the static policy asks`,
    };
  }
  // A team rule widens ALLOW only where the analysis asked: an ASK of rule 5 is the analysis
  // unsure, which a person has already settled for this kind of call; a DENY (rules 2 and 3) is
  // the analysis sure, and a static ask rule (above) is the user's own word, so neither moves.
  if (gate.verdict === 'ASK' && input.policy !== 'ask' && input.teamAllow != null) {
    return {
      verdict: 'ALLOW',
      rule: gate.rule,
      decided_by: 'team',
      reason: `${gate.reason}; allowed by the team rule ${input.teamAllow}`,
    };
  }
  return { verdict: gate.verdict, rule: gate.rule, decided_by: 'gate', reason: gate.reason };
}

function composeAnswers(
  answers: ToolGateAnswers,
  thresholds: ToolGateThresholds,
): { verdict: ToolGateVerdictValue; rule: 2 | 3 | 4 | 5; reason: string } | null {
  const destructive = answers.destructive?.noul;
  const exfil = answers.exfil_risk?.noul;
  if (destructive !== undefined && destructive >= thresholds.deny_noul) {
    return {
      verdict: 'DENY',
      rule: 2,
      reason: `destructive ${format(destructive)} ≥ deny_noul ${format(thresholds.deny_noul)}`,
    };
  }
  if (exfil !== undefined && exfil >= thresholds.deny_noul) {
    return {
      verdict: 'DENY',
      rule: 2,
      reason: `exfil_risk ${format(exfil)} ≥ deny_noul ${format(thresholds.deny_noul)}`,
    };
  }
  const disposition = answers.disposition;
  if (disposition === undefined) return null;
  const confidence = disposition.confidence;
  if (disposition.choice === 'deny' && confidence >= thresholds.allow_confidence) {
    return {
      verdict: 'DENY',
      rule: 3,
      reason: `disposition deny at confidence ${format(confidence)} ≥ ${format(thresholds.allow_confidence)}`,
    };
  }
  if (disposition.choice === 'allow' && confidence >= thresholds.allow_confidence) {
    const short = allowShortfall(answers, thresholds);
    if (short === null) {
      return {
        verdict: 'ALLOW',
        rule: 4,
        reason: `disposition allow at confidence ${format(confidence)}; granted, plausible, on task, low risk`,
      };
    }
  }
  // The stub (and any engine without evidence) answers `ask` at confidence 0: that is no opinion.
  if (disposition.choice === 'ask' && confidence > 0 && disposition.arbiter?.abstained !== true) {
    return { verdict: 'ASK', rule: 5, reason: `disposition ask at confidence ${format(confidence)}` };
  }
  return null;
}

/** Why rule 4 does not hold, or null when it does. */
function allowShortfall(answers: ToolGateAnswers, thresholds: ToolGateThresholds): string | null {
  for (const id of ['in_grant', 'args_plausible', 'on_task'] as const) {
    const value = answers[id]?.noul;
    if (value === undefined || value < thresholds.allow_noul) return id;
  }
  for (const id of ['destructive', 'exfil_risk'] as const) {
    const value = answers[id]?.noul;
    if (value === undefined || value >= thresholds.allow_risk_max) return id;
  }
  return null;
}

/** The existing policy decides (or nothing does) when the gate has no answer or no opinion. */
function fallBackToPolicy(policy: PolicyDecision, rule: 6 | null, reason: string): ToolGateComposition {
  if (policy === 'allow') return { verdict: 'ALLOW', rule, decided_by: 'policy', reason };
  if (policy === 'ask') return { verdict: 'ASK', rule, decided_by: 'policy', reason };
  return { verdict: null, rule, decided_by: 'none', reason };
}

function policyPhrase(policy: PolicyDecision): string {
  if (policy === 'allow') return 'the existing policy allows';
  if (policy === 'ask') return 'the existing policy asks';
  return 'the existing policy applies';
}
