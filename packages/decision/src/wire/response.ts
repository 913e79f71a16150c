import { z } from 'zod';
import { answerSchema } from './answer.js';

/** Token usage. A count that is not known is `null`, never an invented zero. */
export const usageSchema = z.object({
  input_tokens: z.number().int().min(0).nullable(),
  output_tokens: z.number().int().min(0).nullable(),
});
export type Usage = z.infer<typeof usageSchema>;

export const decisionResponseSchema = z.object({
  /** The concrete pin that answered, also when an alias was asked for. */
  model: z.string(),
  answers: z.record(z.string(), answerSchema),
  usage: usageSchema,
});
export type DecisionResponse = z.infer<typeof decisionResponseSchema>;
