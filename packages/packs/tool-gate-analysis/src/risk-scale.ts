/**
 * The named risk scale the rules use instead of inline probabilities. The steps sit on either
 * side of the pack's default thresholds (allow_risk_max 0.2, deny_noul 0.7, allow_confidence
 * 0.75), so a rule says what it means (routine, ask, deny) and the numbers live in one place.
 * A rule picks the step whose meaning fits; two rules that mean the same risk share a step.
 */
export const RISK = {
  /** Nothing to see: the floor of an understood call. */
  none: 0.02,
  /** Routine work with a trace of risk (deleting a generated directory). */
  routine: 0.08,
  /** Low, still allowed (below allow_risk_max). */
  low: 0.15,
  /** Above allow_risk_max: never allowed outright, asked. */
  askLow: 0.3,
  /** A question for a human: the call may be fine, the analyser cannot tell. */
  ask: 0.5,
  /** A strong question: likely harmful, but a task can explain it. */
  askHigh: 0.6,
  /**
   * At deny_noul: a destructive or exfiltration risk here is denied (the pack's rule 2), while a
   * finding that only leans to deny (`deny`) stays below allow_confidence and so is asked.
   */
  threshold: 0.7,
  /** Above deny_noul and allow_confidence: denied. */
  deny: 0.75,
  /** Clearly harmful. */
  denyHigh: 0.85,
  /** Harmful beyond doubt (a secret sent off the machine, a reverse shell, a wiped disk). */
  certain: 0.95,
} as const;

export type RiskStep = keyof typeof RISK;
