import { z } from 'zod';

const tokenCount = z.number().int().min(0);

/** Token usage of a response; the response carries `null` instead when usage is unknown. */
export const usageSchema = z.looseObject({
  input_tokens: tokenCount.optional(),
  output_tokens: tokenCount.optional(),
  total_tokens: tokenCount.optional(),
  cache_read_tokens: tokenCount.optional(),
  cache_write_tokens: tokenCount.optional(),
});
export type Usage = z.infer<typeof usageSchema>;
