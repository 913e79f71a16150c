import { z } from 'zod';
import { parseModelPin } from './model-pin.js';

const modelPinSchema = z.string().refine((name) => parseModelPin(name) !== null, {
  message: 'a model name must be a pin `<model>-<semver>`, e.g. `arbiter-1.0.0`',
});

const aliasNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/, 'an alias is 1–200 letters, digits, `.`, `_` or `-`')
  .refine((name) => parseModelPin(name) === null, {
    message: 'an alias must not look like a pin `<model>-<semver>`',
  });

/** One concrete model of the catalog. */
export const catalogModelSchema = z.strictObject({
  name: modelPinSchema,
  description: z.string().max(1000).default(''),
  /** ISO date (`YYYY-MM-DD`) the model version was released. */
  release_date: z.iso.date(),
  /** `{ kind, …options of that kind }`; validated by the engine kind's own schema. */
  engine: z.looseObject({ kind: z.string().min(1) }),
});
export type CatalogModel = z.infer<typeof catalogModelSchema>;

/** The `catalog` section of the configuration file. */
export const catalogConfigSchema = z.strictObject({
  /** Include the embedded `arbiter-<semver>` models served by the built-in engine. */
  builtinModels: z.boolean().default(true),
  models: z.array(catalogModelSchema).default([]),
  /** Operator aliases: alias → pin, `<model>-latest` or another alias. Override the embedded ones. */
  aliases: z.record(aliasNameSchema, z.string().min(1)).default({}),
  /** The model used when a request names none. */
  defaultModel: z.string().min(1).default('arbiter-latest'),
});
export type CatalogConfig = z.infer<typeof catalogConfigSchema>;
export type CatalogConfigInput = z.input<typeof catalogConfigSchema>;
