import type { CriterionGrade, Grade } from '../grading/grade.js';
import type { Rubric } from '../rubric/load-rubric.js';
import type { RubricCriterion } from '../rubric/rubric-schema.js';

/** A failing criterion with the rubric's words for what was reached and what was needed. */
export interface FailingCriterion {
  grade: CriterionGrade;
  criterion: RubricCriterion;
  /** The question (Score) or the statement (Noul). */
  asked: string;
  /** Score: the description of the level nearest the score reached. */
  reachedLevel?: string;
  /** Score: the description of the lowest level that passes. Noul: what makes the statement true, if given. */
  needed?: string;
  /** A readable figure: `score 1.40 of 0–3, needs 2` or `P(true) 0.42, needs 0.70`. */
  figure: string;
}

/** The failing criteria of a grade, required ones first, then by weight. */
export function failingCriteria(rubric: Rubric, grade: Grade): FailingCriterion[] {
  const byId = new Map(rubric.definition.criteria.map((criterion) => [criterion.id, criterion]));
  const failing: FailingCriterion[] = [];
  for (const criterionGrade of grade.criteria) {
    const criterion = byId.get(criterionGrade.id);
    if (criterion === undefined || criterionGrade.passed) continue;
    if (criterion.type === 'score') {
      const top = criterion.levels.length - 1;
      const reached = criterion.levels[Math.min(top, Math.max(0, Math.round(criterionGrade.value)))];
      const needed = criterion.levels[Math.min(top, Math.ceil(criterion.pass_score))];
      failing.push({
        grade: criterionGrade,
        criterion,
        asked: criterion.question,
        ...(reached === undefined ? {} : { reachedLevel: reached }),
        ...(needed === undefined ? {} : { needed }),
        figure: `score ${criterionGrade.value.toFixed(2)} of 0–${top}, needs ${criterion.pass_score}`,
      });
    } else {
      failing.push({
        grade: criterionGrade,
        criterion,
        asked: criterion.statement,
        ...(criterion.true === undefined ? {} : { needed: criterion.true }),
        figure: `P(true) ${criterionGrade.value.toFixed(2)}, needs ${criterion.pass_probability.toFixed(2)}`,
      });
    }
  }
  return failing.sort(
    (left, right) =>
      Number(right.grade.required) - Number(left.grade.required) || right.grade.weight - left.grade.weight,
  );
}
