export { type FailingCriterion, failingCriteria } from './feedback/failing-criteria.js';
export type { Feedback } from './feedback/feedback.js';
export { rubricFeedback } from './feedback/rubric-feedback.js';
export { decideOutcome } from './grading/decide-outcome.js';
export {
  type CriterionGrade,
  GRADE_OUTCOMES,
  type Grade,
  type GradeOutcome,
  type UngradedReason,
} from './grading/grade.js';
export { binaryConfidence, gradeCriterion } from './grading/grade-criterion.js';
export { type GradeWorkOptions, gradeWork } from './grading/grade-work.js';
export { formatGradeReport } from './report/grade-report.js';
export {
  DEFAULT_MAX_ROUNDS,
  type ReviseUntilSatisfiedOptions,
  type RevisionResult,
  type RevisionRound,
  type RevisionStop,
  reviseUntilSatisfied,
} from './revision/revise-until-satisfied.js';
export type { WorkReviser, WorkVersion } from './revision/work-reviser.js';
export { canonicalSha256 } from './rubric/canonical-sha256.js';
export { loadRubric, RUBRIC_PACK_PREFIX, type Rubric } from './rubric/load-rubric.js';
export { parseRubricText, readRubricFile } from './rubric/read-rubric-file.js';
export { RubricError, type RubricIssue } from './rubric/rubric-error.js';
export {
  criterionSchema,
  type NoulCriterion,
  noulCriterionSchema,
  type OutcomeRules,
  outcomeRulesSchema,
  RUBRIC_LIMITS,
  type RubricCriterion,
  type RubricDefinition,
  type RubricInput,
  rubricSchema,
  type ScoreCriterion,
  scoreCriterionSchema,
} from './rubric/rubric-schema.js';
