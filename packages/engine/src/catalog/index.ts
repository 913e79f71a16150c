/**
 * The `@arbiter/engine/catalog` entry: the model catalog, its configuration and the engine kinds,
 * without the OpenAI-compatible engine's runtime or the calibration code. `arbiter serve` starts
 * from here, and the LLM engine's modules load only when a catalog model of that kind first
 * answers or is probed (bench/decision-startup.mjs).
 */

export { EnginePackageError } from '../engine-package-error.js';
export { llamaCppEngineConfigSchema } from '../llama/llama-cpp-config.js';
export { llamaCppEngineKind } from '../llama/llama-cpp-engine-kind.js';
export { openAICompatibleEngineKind } from '../llm/openai-compatible-engine-kind.js';
export { nliEngineConfigSchema } from '../nli/nli-engine-config.js';
export { nliEngineKind } from '../nli/nli-engine-kind.js';
export { estimateContextTokens, estimateTokens } from '../token-estimate.js';
export { builtinEngineConfigSchema, builtinEngineKind } from './builtin-engine-kind.js';
export {
  type CatalogConfig,
  type CatalogConfigInput,
  type CatalogModel,
  catalogConfigSchema,
  catalogModelSchema,
} from './catalog-config.js';
export { CatalogConfigError } from './catalog-config-error.js';
export { type CoherenceOptions, withCoherence } from './coherent-engine.js';
export { defineEngineKind, type EngineKind, type EngineKindContext } from './engine-kind.js';
export {
  BUILTIN_ALIASES,
  BUILTIN_MODELS,
  DEFAULT_ENGINE_KINDS,
  ModelCatalog,
  type ModelCatalogOptions,
  type ModelListing,
  type ResolvedModel,
} from './model-catalog.js';
export { ModelNotFoundError } from './model-not-found-error.js';
export { type ModelPin, parseModelPin } from './model-pin.js';
