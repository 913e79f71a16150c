import { z } from 'zod';
import { DECISION_LIMITS } from './limits.js';
import { questionSchema } from './question.js';

/** The state under judgement: text or any JSON object or array. */
export const stateSchema = z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]);
export type State = z.infer<typeof stateSchema>;

/**
 * Arbiter extension: names the decision pack that asked the questions, so an engine with
 * analysers for that pack (the built-in engine and the tool-gate pack) can answer from analysis.
 */
export const packReferenceSchema = z.object({
  name: z.string().min(1).max(200),
  version: z.string().min(1).max(50),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hex digits')
    .optional(),
});
export type PackReference = z.infer<typeof packReferenceSchema>;

export const questionMapSchema = z
  .record(
    z.string().min(1, 'question ids must not be empty').max(DECISION_LIMITS.maxQuestionIdLength),
    questionSchema,
  )
  .refine((questions) => Object.keys(questions).length > 0, { message: 'questions must not be empty' })
  .refine((questions) => Object.keys(questions).length <= DECISION_LIMITS.maxQuestions, {
    message: `at most ${DECISION_LIMITS.maxQuestions} questions per request`,
  });

export const decisionRequestSchema = z.object({
  model: z.string().min(1).max(200).optional(),
  state: stateSchema,
  questions: questionMapSchema,
  pack: packReferenceSchema.optional(),
});
export type DecisionRequest = z.infer<typeof decisionRequestSchema>;
