import type { Grade } from '../grading/grade.js';
import type { Rubric } from '../rubric/load-rubric.js';
import { failingCriteria } from './failing-criteria.js';
import type { Feedback } from './feedback.js';

/**
 * Deterministic feedback built from the rubric's own words: each failing criterion with its score
 * and the level description it missed. Used when no coding model is configured, and as the
 * fallback when the configured one fails.
 */
export function rubricFeedback(rubric: Rubric, grade: Grade): Feedback {
  const lines = [`The work does not yet meet the rubric "${rubric.definition.name}". Revise it so that:`];
  for (const failing of failingCriteria(rubric, grade)) {
    const tag = failing.grade.required ? ' (required)' : '';
    lines.push('', `- ${failing.grade.id}${tag}: ${failing.asked} [${failing.figure}]`);
    if (failing.reachedLevel !== undefined) lines.push(`  Currently: "${failing.reachedLevel}"`);
    if (failing.needed !== undefined) lines.push(`  Needed: "${failing.needed}"`);
  }
  return { text: lines.join('\n'), source: 'rubric' };
}
