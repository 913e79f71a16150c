import type { CriterionGrade, Grade } from '../grading/grade.js';

/**
 * A grade as a plain-text table, one row per criterion (result, bar, confidence, weight,
 * pass/fail), then the outcome with its figures, or the reason no grade could be formed.
 */
export function formatGradeReport(grade: Grade): string {
  const lines = [
    `rubric ${grade.rubric.name} ${grade.rubric.version} (sha256 ${grade.rubric.sha256.slice(0, 12)}…)`,
  ];
  if (grade.criteria.length > 0) {
    const rows = [
      ['criterion', 'result', 'bar', 'confidence', 'weight', 'verdict'],
      ...grade.criteria.map((criterion) => [
        criterion.required ? `${criterion.id} *` : criterion.id,
        resultOf(criterion),
        barOf(criterion),
        criterion.confidence.toFixed(2),
        String(criterion.weight),
        verdictOf(criterion),
      ]),
    ];
    const widths =
      rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
    lines.push('');
    for (const row of rows)
      lines.push(
        row
          .map((cell, column) => cell.padEnd(widths[column] ?? 0))
          .join('  ')
          .trimEnd(),
      );
    if (grade.criteria.some((criterion) => criterion.required)) lines.push('(* required)');
  }
  lines.push('');
  const figures =
    grade.weightedScore === null || grade.passShare === null
      ? ''
      : ` (weighted score ${grade.weightedScore.toFixed(2)}, pass share ${grade.passShare.toFixed(2)})`;
  lines.push(`outcome: ${grade.outcome}${figures}`);
  if (grade.ungraded) lines.push(`reason: ${grade.ungraded.reason}: ${grade.ungraded.message}`);
  if (grade.model !== null) lines.push(`model: ${grade.model}`);
  return lines.join('\n');
}

function resultOf(criterion: CriterionGrade): string {
  return criterion.type === 'score'
    ? `score ${criterion.value.toFixed(2)}/${(criterion.levels ?? 1) - 1}`
    : `p ${criterion.value.toFixed(2)}`;
}

function barOf(criterion: CriterionGrade): string {
  return criterion.type === 'score' ? `≥ ${criterion.passBar}` : `≥ ${criterion.passBar.toFixed(2)}`;
}

function verdictOf(criterion: CriterionGrade): string {
  if (criterion.abstained) return 'abstained';
  return criterion.passed ? 'pass' : 'FAIL';
}
