import { z } from 'zod';

/** An artifact cited on the assistant message. */
export const containerFileCitationSchema = z.looseObject({
  type: z.literal('container_file_citation'),
  container_id: z.string(),
  file_id: z.string(),
  filename: z.string(),
  download_url: z.string().optional(),
  start_index: z.number().int().optional(),
  end_index: z.number().int().optional(),
});
export type ContainerFileCitation = z.infer<typeof containerFileCitationSchema>;

export const annotationSchema = z.looseObject({ type: z.string() });
export type Annotation = z.infer<typeof annotationSchema> | ContainerFileCitation;

export const contentPartSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  annotations: z.array(annotationSchema).optional(),
});
export type ContentPart = z.infer<typeof contentPartSchema>;

export const outputTextSchema = z.looseObject({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(annotationSchema),
});
export type OutputText = z.infer<typeof outputTextSchema>;

export const messageItemSchema = z.looseObject({
  id: z.string(),
  type: z.literal('message'),
  role: z.literal('assistant'),
  status: z.string(),
  content: z.array(outputTextSchema),
});
export type MessageItem = z.infer<typeof messageItemSchema>;

export const reasoningItemSchema = z.looseObject({
  id: z.string(),
  type: z.literal('reasoning'),
  status: z.string().optional(),
  summary: z.array(z.looseObject({ type: z.string(), text: z.string() })),
});
export type ReasoningItem = z.infer<typeof reasoningItemSchema>;

/** `arguments` is a JSON document serialised as a string. */
export const functionCallItemSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function_call'),
  status: z.string().optional(),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
});
export type FunctionCallItem = z.infer<typeof functionCallItemSchema>;

export const functionCallOutputItemSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function_call_output'),
  status: z.string().optional(),
  call_id: z.string(),
  output: z.string(),
});
export type FunctionCallOutputItem = z.infer<typeof functionCallOutputItemSchema>;

/** Clients must tolerate item types they do not know, so the union ends in a loose catch-all. */
export const outputItemSchema = z.union([
  messageItemSchema,
  reasoningItemSchema,
  functionCallItemSchema,
  functionCallOutputItemSchema,
  z.looseObject({ type: z.string(), id: z.string().optional() }),
]);
export type KnownOutputItem = MessageItem | ReasoningItem | FunctionCallItem | FunctionCallOutputItem;
export type OutputItem = z.infer<typeof outputItemSchema>;
