export type { PackAnalyser } from '@arbiter/decision';
export { normalisedEntropyConfidence } from './answer-confidence.js';
export { type BuiltinEngineOptions, createBuiltinEngine } from './builtin/builtin-engine.js';
export {
  calibrateAnswer,
  type EngineCalibration,
  engineCalibrationSchema,
  withCalibration,
} from './calibrated-engine.js';
export { builtinEngineConfigSchema, builtinEngineKind } from './catalog/builtin-engine-kind.js';
export {
  type CatalogConfig,
  type CatalogConfigInput,
  type CatalogModel,
  catalogConfigSchema,
  catalogModelSchema,
} from './catalog/catalog-config.js';
export { CatalogConfigError } from './catalog/catalog-config-error.js';
export { type CoherenceOptions, withCoherence } from './catalog/coherent-engine.js';
export { defineEngineKind, type EngineKind, type EngineKindContext } from './catalog/engine-kind.js';
export {
  BUILTIN_ALIASES,
  BUILTIN_MODELS,
  DEFAULT_ENGINE_KINDS,
  ModelCatalog,
  type ModelCatalogOptions,
  type ModelListing,
  type ResolvedModel,
} from './catalog/model-catalog.js';
export { ModelNotFoundError } from './catalog/model-not-found-error.js';
export { type ModelPin, parseModelPin } from './catalog/model-pin.js';
export { EnginePackageError } from './engine-package-error.js';
export {
  type LlamaCppEngineConfig,
  type LlamaCppEngineConfigInput,
  type LlamaModelSource,
  llamaCppEngineConfigSchema,
  type PromptLayout,
  type PromptLayoutInput,
  type PromptLayoutName,
  promptLayoutSchema,
} from './llama/llama-cpp-config.js';
export { createLlamaCppEngine, LLAMA_CPP_ENGINE_ID, type LlamaCppEngine } from './llama/llama-cpp-engine.js';
export { llamaCppEngineKind } from './llama/llama-cpp-engine-kind.js';
export { PROMPT_LAYOUTS } from './llama/prompt-layouts.js';
export type { EngineAvailability } from './llm/availability-probe.js';
export {
  type CalibrationMetrics,
  calibrationMetrics,
  type ReliabilityBin,
} from './llm/calibration/calibration-metrics.js';
export type { CalibrationSample } from './llm/calibration/calibration-sample.js';
export {
  type CalibrationReport,
  calibrateEngine,
  calibrateOpenAICompatibleEngine,
  calibrateSamples,
  type QuestionTypeCalibration,
} from './llm/calibration/engine-calibration.js';
export {
  expectedOutcomeIndex,
  type LabelledExample,
  labelledExampleSchema,
  parseLabelledExamples,
} from './llm/calibration/labelled-example.js';
export {
  RELIABILITY_COLOURS,
  type ReliabilityPanel,
  renderReliabilityDiagram,
} from './llm/calibration/reliability-diagram.js';
export { fitTemperature, temperatureLogLoss } from './llm/calibration/temperature-fit.js';
export { checkEngineAvailability } from './llm/engine-availability.js';
export {
  type LlmCalibration,
  type LogprobsMode,
  llmCalibrationSchema,
  type OpenAICompatibleEngineConfig,
  type OpenAICompatibleEngineConfigInput,
  openAICompatibleEngineConfigSchema,
} from './llm/openai-compatible-config.js';
export {
  createOpenAICompatibleEngine,
  type OpenAICompatibleEngine,
  type OpenAICompatibleEngineOptions,
} from './llm/openai-compatible-engine.js';
export { openAICompatibleEngineKind } from './llm/openai-compatible-engine-kind.js';
export { lacksEvidence, NO_EVIDENCE, questionsWithoutEvidence } from './no-evidence.js';
export { ESTIMATED_BYTES_PER_TOKEN, estimateContextTokens, estimateTokens } from './token-estimate.js';
