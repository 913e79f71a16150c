import type { Answer } from '@arbiter/decision';
import type { RubricCriterion } from '../rubric/rubric-schema.js';
import type { CriterionGrade } from './grade.js';

/** Reads one answer against its criterion's pass bar. */
export function gradeCriterion(criterion: RubricCriterion, answer: Answer): CriterionGrade {
  const common = {
    id: criterion.id,
    type: criterion.type,
    weight: criterion.weight,
    required: criterion.required,
    abstained: answer.arbiter?.abstained ?? false,
    ...(answer.arbiter?.engine === undefined ? {} : { engine: answer.arbiter.engine }),
  };
  if (criterion.type === 'score') {
    if (answer.type !== 'score')
      throw new TypeError(`criterion "${criterion.id}" got a ${answer.type} answer`);
    const top = criterion.levels.length - 1;
    return {
      ...common,
      value: answer.score,
      passBar: criterion.pass_score,
      levels: criterion.levels.length,
      normalised: clampUnit(answer.score / top),
      confidence: answer.confidence,
      passed: answer.score >= criterion.pass_score,
    };
  }
  if (answer.type !== 'noul') throw new TypeError(`criterion "${criterion.id}" got a ${answer.type} answer`);
  return {
    ...common,
    value: answer.noul,
    passBar: criterion.pass_probability,
    normalised: answer.noul,
    confidence: binaryConfidence(answer.noul),
    passed: answer.noul >= criterion.pass_probability,
  };
}

/**
 * 1 − H(p)/ln 2: 0 at p = 0.5, 1 at p = 0 or 1. The same definition the built-in and LLM engines
 * use for Choice and Score confidence, applied to the two outcomes of a Noul answer.
 */
export function binaryConfidence(probability: number): number {
  let entropy = 0;
  for (const p of [probability, 1 - probability]) if (p > 0) entropy -= p * Math.log(p);
  return clampUnit(1 - entropy / Math.LN2);
}

function clampUnit(value: number): number {
  return Math.min(1, Math.max(0, value));
}
