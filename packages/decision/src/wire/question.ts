import { z } from 'zod';
import { DECISION_LIMITS } from './limits.js';

/** Instructions may be a string, or an object or array that carries the question and data it refers to. */
export const instructionsSchema = z.union([
  z.string(),
  z.record(z.string(), z.unknown()),
  z.array(z.unknown()),
]);

const descriptionSchema = z.string().nullable();

export const noulQuestionSchema = z.object({
  type: z.literal('noul'),
  instructions: instructionsSchema,
  criteria: z
    .object({ true: descriptionSchema.optional(), false: descriptionSchema.optional() })
    .nullable()
    .optional(),
});

export const choiceQuestionSchema = z.object({
  type: z.literal('choice'),
  instructions: instructionsSchema,
  criteria: z
    .record(z.string().min(1, 'option names must not be empty'), descriptionSchema)
    .refine((options) => Object.keys(options).length >= 1, { message: 'a choice needs at least one option' })
    .refine((options) => Object.keys(options).length <= DECISION_LIMITS.maxChoiceOptions, {
      message: `a choice may have at most ${DECISION_LIMITS.maxChoiceOptions} options`,
    }),
});

export const scoreQuestionSchema = z.object({
  type: z.literal('score'),
  instructions: instructionsSchema,
  criteria: z
    .array(descriptionSchema)
    .min(DECISION_LIMITS.minScoreLevels, `a score needs at least ${DECISION_LIMITS.minScoreLevels} levels`)
    .max(DECISION_LIMITS.maxScoreLevels, `a score may have at most ${DECISION_LIMITS.maxScoreLevels} levels`),
});

export const questionSchema = z.discriminatedUnion('type', [
  noulQuestionSchema,
  choiceQuestionSchema,
  scoreQuestionSchema,
]);

export type NoulQuestion = z.infer<typeof noulQuestionSchema>;
export type ChoiceQuestion = z.infer<typeof choiceQuestionSchema>;
export type ScoreQuestion = z.infer<typeof scoreQuestionSchema>;
export type Question = z.infer<typeof questionSchema>;
export type QuestionType = Question['type'];
