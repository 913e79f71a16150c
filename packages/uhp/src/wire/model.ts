import { z } from 'zod';

/** `available` is computed by the server (credential present, provider reachable), never asserted. */
export const modelSchema = z.looseObject({
  id: z.string(),
  label: z.string().optional(),
  backend: z.string().optional(),
  available: z.boolean(),
  default: z.boolean().optional(),
});
export type Model = z.infer<typeof modelSchema>;

/** `GET /v1/models`. */
export const modelCatalogSchema = z.looseObject({
  backends: z.record(z.string(), z.looseObject({ default: z.string(), models: z.array(modelSchema) })),
});
export type ModelCatalogBody = z.infer<typeof modelCatalogSchema>;

/** `GET /v1/harnesses/{id}/models`. */
export const harnessModelsSchema = z.looseObject({
  harness_id: z.string().optional(),
  backend: z.string().optional(),
  default: z.string().optional(),
  fallback: z.string().optional(),
  models: z.array(modelSchema),
});
export type HarnessModels = z.infer<typeof harnessModelsSchema>;
