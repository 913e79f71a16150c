import { DECISION_LIMITS } from '@arbiter/decision';
import { z } from 'zod';

/** Limits of a rubric file, documented in docs/grading.md. */
export const RUBRIC_LIMITS = {
  /** Largest rubric file read, in bytes. */
  maxFileBytes: 262_144,
  /** Most criteria: one decision request carries them all. */
  maxCriteria: DECISION_LIMITS.maxQuestions,
  /** Longest question, statement or level description, in characters. */
  maxTextLength: 4_000,
  maxNameLength: 100,
} as const;

const text = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} must not be empty`)
    .max(RUBRIC_LIMITS.maxTextLength, `${what} may have at most ${RUBRIC_LIMITS.maxTextLength} characters`);

const criterionFields = {
  /** The question id sent to the decision service, and the name shown in reports. */
  id: z
    .string()
    .regex(
      /^[a-z][a-z0-9_]*$/,
      'id must be lowercase letters, digits and underscores, starting with a letter',
    )
    .max(64, 'id may have at most 64 characters'),
  /** Share of this criterion in the weighted score and the weighted pass share. */
  weight: z
    .number()
    .positive('weight must be greater than 0')
    .max(1_000, 'weight may be at most 1000')
    .default(1),
  /** A required criterion that fails keeps the work from being satisfied whatever the others say. */
  required: z.boolean().default(false),
};

export const scoreCriterionSchema = z
  .object({
    ...criterionFields,
    type: z.literal('score'),
    question: text('question'),
    /** Level descriptions, lowest first: describe situations, not degrees. */
    levels: z
      .array(text('a level description'))
      .min(DECISION_LIMITS.minScoreLevels, `levels needs at least ${DECISION_LIMITS.minScoreLevels} entries`)
      .max(
        DECISION_LIMITS.maxScoreLevels,
        `levels may have at most ${DECISION_LIMITS.maxScoreLevels} entries`,
      ),
    /** Passes when the probability-weighted level index (0 … levels − 1) reaches this. */
    pass_score: z.number().min(0, 'pass_score must be at least 0'),
  })
  .strict()
  .superRefine((criterion, context) => {
    const top = criterion.levels.length - 1;
    if (criterion.pass_score > top) {
      context.addIssue({
        code: 'custom',
        path: ['pass_score'],
        message: `pass_score ${criterion.pass_score} is above the top level index ${top} (levels are numbered from 0)`,
      });
    }
  });

export const noulCriterionSchema = z
  .object({
    ...criterionFields,
    type: z.literal('noul'),
    /** A statement about the work that should be true. */
    statement: text('statement'),
    /** What makes the statement true, and what makes it false (optional, sharpen the judgement). */
    true: text('true').optional(),
    false: text('false').optional(),
    /** Passes when the probability that the statement is true reaches this. */
    pass_probability: z
      .number()
      .min(0, 'pass_probability must be between 0 and 1')
      .max(1, 'pass_probability must be between 0 and 1'),
  })
  .strict();

export const criterionSchema = z.discriminatedUnion('type', [scoreCriterionSchema, noulCriterionSchema], {
  error: (issue) => (issue.code === 'invalid_union' ? 'type must be "score" or "noul"' : undefined),
});

/** The rules that turn per-criterion answers into an outcome (docs/grading.md, "Outcome rules"). */
export const outcomeRulesSchema = z
  .object({
    /** Every criterion's confidence must reach this, else the work is `ungraded`. */
    min_confidence: z.number().min(0).max(1).default(0.2),
    /** `satisfied` needs every required criterion to pass and this weighted share of criteria to pass. */
    satisfied_share: z.number().min(0).max(1).default(1),
    /** Not satisfied but the weighted score reaches this: `needs_revision`; below it: `unsatisfied`. */
    revision_score: z.number().min(0).max(1).default(0.5),
  })
  .strict();

export const rubricSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]*$/, 'name must be lowercase letters, digits, ".", "_" and "-"')
      .max(RUBRIC_LIMITS.maxNameLength, `name may have at most ${RUBRIC_LIMITS.maxNameLength} characters`),
    version: z
      .string()
      .regex(/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/, 'version must be a semantic version such as 1.0.0'),
    description: text('description').optional(),
    criteria: z
      .array(criterionSchema)
      .min(1, 'criteria must list at least one criterion')
      .max(RUBRIC_LIMITS.maxCriteria, `criteria may list at most ${RUBRIC_LIMITS.maxCriteria} criteria`)
      .superRefine((criteria, context) => {
        const seen = new Set<string>();
        criteria.forEach((criterion, index) => {
          if (seen.has(criterion.id)) {
            context.addIssue({
              code: 'custom',
              path: [index, 'id'],
              message: `id "${criterion.id}" is used twice`,
            });
          }
          seen.add(criterion.id);
        });
      }),
    outcome: outcomeRulesSchema.prefault({}),
  })
  .strict();

export type RubricDefinition = z.infer<typeof rubricSchema>;
export type RubricInput = z.input<typeof rubricSchema>;
export type RubricCriterion = z.infer<typeof criterionSchema>;
export type ScoreCriterion = z.infer<typeof scoreCriterionSchema>;
export type NoulCriterion = z.infer<typeof noulCriterionSchema>;
export type OutcomeRules = z.infer<typeof outcomeRulesSchema>;
