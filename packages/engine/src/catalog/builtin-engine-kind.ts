import { z } from 'zod';
import { createBuiltinEngine } from '../builtin/builtin-engine.js';
import { defineEngineKind } from './engine-kind.js';

export const builtinEngineConfigSchema = z.strictObject({ kind: z.literal('builtin') });

/** Catalog engine kind `builtin`: the deterministic built-in engine with the catalog's analysers. */
export const builtinEngineKind = defineEngineKind({
  configSchema: builtinEngineConfigSchema,
  create: (_config, context) => createBuiltinEngine({ analysers: context.analysers }),
});
