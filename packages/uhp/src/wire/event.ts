import { z } from 'zod';
import { annotationSchema, contentPartSchema, outputItemSchema } from './output-item.js';
import { responseSchema } from './response.js';

/** Event types that end a stream; exactly one is sent, last. */
export const TERMINAL_EVENT_TYPES = ['response.completed', 'response.incomplete', 'response.failed'] as const;
export type TerminalEventType = (typeof TERMINAL_EVENT_TYPES)[number];

export function isTerminalEventType(type: string): type is TerminalEventType {
  return (TERMINAL_EVENT_TYPES as readonly string[]).includes(type);
}

/** One streamed event; `sequence_number` starts at 0 and grows by exactly 1. */
export const streamEventSchema = z.looseObject({
  type: z.string(),
  sequence_number: z.number().int().min(0),
  response: responseSchema.optional(),
  item: outputItemSchema.optional(),
  part: contentPartSchema.optional(),
  annotation: annotationSchema.optional(),
  delta: z.string().optional(),
  text: z.string().optional(),
  arguments: z.string().optional(),
  item_id: z.string().optional(),
  output_index: z.number().int().min(0).optional(),
  content_index: z.number().int().min(0).optional(),
  summary_index: z.number().int().min(0).optional(),
  annotation_index: z.number().int().min(0).optional(),
  code: z.string().optional(),
  message: z.string().optional(),
  param: z.string().nullable().optional(),
});
export type StreamEvent = z.infer<typeof streamEventSchema>;
