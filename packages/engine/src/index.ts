export type { PackAnalyser } from '@arbiter/decision';
export { createBuiltinEngine } from './builtin/builtin-engine.js';
export { calibrateAnswer, type EngineCalibration, withCalibration } from './calibrated-engine.js';
export { catalogConfigSchema } from './catalog/catalog-config.js';
export { withCoherence } from './catalog/coherent-engine.js';
export { defineEngineKind } from './catalog/engine-kind.js';
export { BUILTIN_MODELS, DEFAULT_ENGINE_KINDS, ModelCatalog } from './catalog/model-catalog.js';
export { ModelNotFoundError } from './catalog/model-not-found-error.js';
export { choiceKindOf, evidenceKindOf } from './evidence-kind.js';
export {
  type CalibrationReport,
  calibrateEngine,
  calibrateOpenAICompatibleEngine,
  calibrateSamples,
} from './llm/calibration/engine-calibration.js';
export { parseLabelledExamples } from './llm/calibration/labelled-example.js';
export { applyMonotoneMap, fitMonotoneMap, type MonotoneMap } from './llm/calibration/monotone-map.js';
export { RELIABILITY_COLOURS, renderReliabilityDiagram } from './llm/calibration/reliability-diagram.js';
export { type LlmCalibration, openAICompatibleEngineConfigSchema } from './llm/openai-compatible-config.js';
export { createOpenAICompatibleEngine } from './llm/openai-compatible-engine.js';
export { questionsWithoutEvidence } from './no-evidence.js';
export { estimateContextTokens, estimateTokens } from './token-estimate.js';
