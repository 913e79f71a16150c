import { z } from 'zod';
import { createBuiltinEngine } from '../builtin/builtin-engine.js';
import { engineCalibrationSchema } from '../calibrated-engine.js';
import { defineEngineKind } from './engine-kind.js';

export const builtinEngineConfigSchema = z.strictObject({
  kind: z.literal('builtin'),
  /** Temperatures for the lexical evaluator's answers; default: the engine's own fitted calibration. */
  calibration: engineCalibrationSchema.optional(),
});

/** Catalog engine kind `builtin`: the deterministic built-in engine with the catalog's analysers. */
export const builtinEngineKind = defineEngineKind({
  configSchema: builtinEngineConfigSchema,
  create: (config, context) =>
    createBuiltinEngine({ analysers: context.analysers, calibration: config.calibration }),
  // The lexical evaluator reads the state once and each question on its own; the analysers answer
  // pack requests, which the coherence layer always sends whole.
  answersQuestionsIndependently: true,
});
