export { normalisedEntropyConfidence } from './answer-confidence.js';
export { type BuiltinEngineOptions, createBuiltinEngine } from './builtin/builtin-engine.js';
export type { PackAnalyser } from './builtin/pack-analyser.js';
export { builtinEngineConfigSchema, builtinEngineKind } from './catalog/builtin-engine-kind.js';
export {
  type CatalogConfig,
  type CatalogConfigInput,
  type CatalogModel,
  catalogConfigSchema,
  catalogModelSchema,
} from './catalog/catalog-config.js';
export { CatalogConfigError } from './catalog/catalog-config-error.js';
export { defineEngineKind, type EngineKind, type EngineKindContext } from './catalog/engine-kind.js';
export {
  BUILTIN_ALIASES,
  BUILTIN_MODELS,
  ModelCatalog,
  type ModelCatalogOptions,
  type ModelListing,
  type ResolvedModel,
} from './catalog/model-catalog.js';
export { ModelNotFoundError } from './catalog/model-not-found-error.js';
export { type ModelPin, parseModelPin } from './catalog/model-pin.js';
export { ESTIMATED_BYTES_PER_TOKEN, estimateContextTokens, estimateTokens } from './token-estimate.js';
