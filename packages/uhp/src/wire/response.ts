import { z } from 'zod';
import { uhpErrorSchema } from './error.js';
import { outputItemSchema } from './output-item.js';
import { usageSchema } from './usage.js';

export const RESPONSE_STATUSES = ['in_progress', 'completed', 'failed', 'incomplete', 'cancelled'] as const;
export const responseStatusSchema = z.enum(RESPONSE_STATUSES);
export type ResponseStatus = z.infer<typeof responseStatusSchema>;
export const TERMINAL_RESPONSE_STATUSES: readonly ResponseStatus[] = [
  'completed',
  'failed',
  'incomplete',
  'cancelled',
];

export const responseMetadataSchema = z.looseObject({
  session_id: z.string().optional(),
  harness_id: z.string().optional(),
  requested_model: z.string().optional(),
  model_fallback: z.boolean().optional(),
  model_fallback_reason: z.string().optional(),
});
export type ResponseMetadata = z.infer<typeof responseMetadataSchema>;

/** One task. `usage` is `null` when unknown; `error` is non-null only when `failed`. */
export const responseSchema = z.looseObject({
  id: z.string().regex(/^resp_/),
  object: z.literal('response'),
  created_at: z.number().int(),
  status: responseStatusSchema,
  error: uhpErrorSchema.nullable().optional(),
  incomplete_details: z.record(z.string(), z.unknown()).nullable().optional(),
  previous_response_id: z.string().nullable().optional(),
  model: z.string(),
  output: z.array(outputItemSchema),
  store: z.boolean().optional(),
  usage: usageSchema.nullable().optional(),
  metadata: responseMetadataSchema.optional(),
});
export type UhpResponse = z.infer<typeof responseSchema>;
