import { describe, expect, it } from 'vitest';
import type { OutcomeRules } from '../rubric/rubric-schema.js';
import { decideOutcome } from './decide-outcome.js';
import type { CriterionGrade } from './grade.js';

const rules: OutcomeRules = { min_confidence: 0.2, satisfied_share: 0.75, revision_score: 0.5 };

function criterion(id: string, overrides: Partial<CriterionGrade>): CriterionGrade {
  return {
    id,
    type: 'noul',
    weight: 1,
    required: false,
    value: 0.9,
    passBar: 0.7,
    normalised: 0.9,
    confidence: 0.6,
    passed: true,
    abstained: false,
    ...overrides,
  };
}

const failing = { value: 0.3, normalised: 0.3, passed: false } as const;

describe('decideOutcome', () => {
  it('is satisfied when every required criterion passes and the weighted pass share reaches the bar', () => {
    const grades = [
      criterion('a', { required: true }),
      criterion('b', {}),
      criterion('c', {}),
      criterion('d', failing),
    ];
    expect(decideOutcome(rules, grades)).toEqual({
      outcome: 'satisfied',
      weightedScore: 0.75,
      passShare: 0.75,
    });
  });

  it('needs revision when a required criterion fails but the weighted score is close', () => {
    const grades = [criterion('a', { required: true, ...failing }), criterion('b', {}), criterion('c', {})];
    const decision = decideOutcome(rules, grades);
    expect(decision.outcome).toBe('needs_revision');
    expect(decision.weightedScore).toBeCloseTo(0.7, 10);
  });

  it('weighs criteria: a heavy failure drags the pass share and score down to unsatisfied', () => {
    const grades = [criterion('heavy', { weight: 4, ...failing, normalised: 0.1 }), criterion('light', {})];
    const decision = decideOutcome(rules, grades);
    expect(decision).toMatchObject({ outcome: 'unsatisfied', passShare: 0.2 });
    expect(decision.weightedScore).toBeCloseTo((4 * 0.1 + 0.9) / 5, 10);
  });

  it('is ungraded when an engine abstained, naming the criteria, before any other rule', () => {
    const decision = decideOutcome(rules, [
      criterion('a', { abstained: true, confidence: 0 }),
      criterion('b', {}),
    ]);
    expect(decision.outcome).toBe('ungraded');
    expect(decision.ungraded).toEqual({
      reason: 'engine_abstained',
      message: 'the engine found no evidence for "a" and abstained',
      criteria: ['a'],
    });
  });

  it('is ungraded when a confidence stays below the bar', () => {
    const decision = decideOutcome(rules, [criterion('a', {}), criterion('b', { confidence: 0.1 })]);
    expect(decision.ungraded).toEqual({
      reason: 'low_confidence',
      message: 'confidence below the bar of 0.2: b 0.10',
      criteria: ['b'],
    });
  });
});
