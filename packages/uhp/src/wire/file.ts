import { z } from 'zod';

export const fileObjectSchema = z.looseObject({
  id: z.string(),
  object: z.literal('file').optional(),
  container_id: z.string().optional(),
  filename: z.string(),
  bytes: z.number().int().min(0).optional(),
  created_at: z.number().int().optional(),
});
export type FileObject = z.infer<typeof fileObjectSchema>;

/** `GET /v1/sessions/{id}/files`: every artifact of the session, earlier tasks included. */
export const fileListSchema = z.looseObject({ files: z.array(fileObjectSchema) });
export type FileList = z.infer<typeof fileListSchema>;
