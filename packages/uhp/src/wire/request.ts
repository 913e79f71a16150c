import { z } from 'zod';

export const inputTextSchema = z.looseObject({ type: z.literal('input_text'), text: z.string() });
/** A file by inline data URL (`file_data`) or by an uploaded `file_id`. */
export const inputFileSchema = z.looseObject({
  type: z.literal('input_file'),
  file_id: z.string().optional(),
  file_data: z.string().optional(),
  filename: z.string().optional(),
});
export const inputImageSchema = z.looseObject({
  type: z.literal('input_image'),
  image_url: z.string().optional(),
  file_id: z.string().optional(),
});
export type InputText = z.infer<typeof inputTextSchema>;
export type InputFile = z.infer<typeof inputFileSchema>;
export type InputImage = z.infer<typeof inputImageSchema>;
export type InputContentPart = InputText | InputFile | InputImage;

/** Items of `input` are open objects on the wire; known shapes are narrowed by the server. */
export const inputItemSchema = z.looseObject({ type: z.string().optional() });
export type InputItem = z.infer<typeof inputItemSchema>;

/** `POST /v1/responses`. Unknown members are allowed (servers ignore and report them). */
export const createResponseRequestSchema = z.looseObject({
  input: z.union([z.string(), z.array(inputItemSchema)]),
  model: z.string().optional(),
  metadata: z.looseObject({ harness_id: z.string().optional() }).optional(),
  stream: z.boolean().optional(),
  previous_response_id: z.string().nullable().optional(),
  instructions: z.string().optional(),
  store: z.boolean().optional(),
  max_output_tokens: z.number().int().nullable().optional(),
  max_step: z.number().int().nullable().optional(),
  timeout_seconds: z.number().int().nullable().optional(),
  tools: z.array(z.looseObject({})).optional(),
  include: z.array(z.string()).optional(),
  background: z.boolean().optional(),
});
export type CreateResponseRequest = z.infer<typeof createResponseRequestSchema>;

/** The request members the specification defines; anything else is reported as ignored. */
export const CREATE_RESPONSE_REQUEST_KEYS: readonly string[] = Object.keys(createResponseRequestSchema.shape);

/** `GET /v1/responses/{id}/input_items`. */
export const inputItemListSchema = z.looseObject({
  object: z.literal('list').optional(),
  data: z.array(z.looseObject({})),
});
export type InputItemList = z.infer<typeof inputItemListSchema>;
