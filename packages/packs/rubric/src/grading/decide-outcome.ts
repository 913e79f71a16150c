import type { OutcomeRules } from '../rubric/rubric-schema.js';
import type { CriterionGrade, Grade } from './grade.js';

type OutcomeDecision = Pick<Grade, 'outcome' | 'ungraded' | 'weightedScore' | 'passShare'>;

/**
 * Applies a rubric's outcome rules, in order: an abstaining engine or a confidence below
 * `min_confidence` leaves the work ungraded; every required criterion passing and a weighted pass
 * share of at least `satisfied_share` satisfies it; otherwise a weighted score of at least
 * `revision_score` asks for a revision, and anything lower is unsatisfied.
 */
export function decideOutcome(rules: OutcomeRules, criteria: readonly CriterionGrade[]): OutcomeDecision {
  const totalWeight = criteria.reduce((sum, criterion) => sum + criterion.weight, 0);
  const weightedScore =
    criteria.reduce((sum, criterion) => sum + criterion.weight * criterion.normalised, 0) / totalWeight;
  const passShare =
    criteria.reduce((sum, criterion) => sum + (criterion.passed ? criterion.weight : 0), 0) / totalWeight;
  const figures = { weightedScore, passShare };

  const abstained = criteria.filter((criterion) => criterion.abstained).map((criterion) => criterion.id);
  if (abstained.length > 0) {
    return {
      outcome: 'ungraded',
      ungraded: {
        reason: 'engine_abstained',
        message: `the engine found no evidence for ${listOf(abstained)} and abstained`,
        criteria: abstained,
      },
      ...figures,
    };
  }
  const unsure = criteria.filter((criterion) => criterion.confidence < rules.min_confidence);
  if (unsure.length > 0) {
    const detail = unsure.map((criterion) => `${criterion.id} ${criterion.confidence.toFixed(2)}`).join(', ');
    return {
      outcome: 'ungraded',
      ungraded: {
        reason: 'low_confidence',
        message: `confidence below the bar of ${rules.min_confidence}: ${detail}`,
        criteria: unsure.map((criterion) => criterion.id),
      },
      ...figures,
    };
  }
  const requiredPass = criteria.every((criterion) => !criterion.required || criterion.passed);
  if (requiredPass && passShare >= rules.satisfied_share) return { outcome: 'satisfied', ...figures };
  if (weightedScore >= rules.revision_score) return { outcome: 'needs_revision', ...figures };
  return { outcome: 'unsatisfied', ...figures };
}

function listOf(ids: readonly string[]): string {
  return ids.map((id) => `"${id}"`).join(', ');
}
