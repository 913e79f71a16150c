import type { Usage } from '@arbiter/decision';

/** What a grade means (docs/grading.md, "Outcomes"); `arbiter grade` exits 0, 1, 2, 2 respectively. */
export const GRADE_OUTCOMES = ['satisfied', 'needs_revision', 'unsatisfied', 'ungraded'] as const;
export type GradeOutcome = (typeof GRADE_OUTCOMES)[number];

/** Why no grade could be formed. */
export type UngradedReason = 'service_skipped' | 'engine_abstained' | 'low_confidence';

/** How one criterion fared. */
export interface CriterionGrade {
  id: string;
  type: 'score' | 'noul';
  weight: number;
  required: boolean;
  /** Score criteria: the probability-weighted level index (0 … levels − 1). Noul criteria: P(true). */
  value: number;
  /** The bar `value` had to reach: `pass_score` or `pass_probability`. */
  passBar: number;
  /** Score criteria: the number of levels; the top index is `levels − 1`. */
  levels?: number;
  /** `value` on a 0–1 scale (score ÷ top index, or the probability itself). */
  normalised: number;
  /** The engine's confidence for Score answers; for Noul answers 1 − H(p)/ln 2 (Noul has no confidence member). */
  confidence: number;
  passed: boolean;
  /** The engine had no evidence and returned its uninformed prior. */
  abstained: boolean;
  /** Which engine answered, when it said so. */
  engine?: string;
}

export interface Grade {
  rubric: { name: string; version: string; sha256: string };
  outcome: GradeOutcome;
  /** Present exactly when the outcome is `ungraded`. */
  ungraded?: { reason: UngradedReason; message: string; criteria?: string[] };
  /** Empty when the decision service was skipped. */
  criteria: CriterionGrade[];
  /** Weighted mean of the normalised values; null when no answers came back. */
  weightedScore: number | null;
  /** Weighted share of criteria that passed; null when no answers came back. */
  passShare: number | null;
  /** The pin that answered; null when the service was skipped. */
  model: string | null;
  usage: Usage | null;
  latencyMs: number;
}
