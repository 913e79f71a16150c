/**
 * The `@arbiter/engine/models` entry: the local model cache, the curated list and `models pull`.
 * Engine kinds that run local weights (`nli`, `llama-cpp`) find their files through `ModelCache`.
 */

export { EnginePackageError } from '../engine-package-error.js';
export {
  isRuntimeInstalled,
  LOCAL_MODEL_RUNTIMES,
  type LocalModelRuntime,
  localRuntimeInstallCommand,
} from '../optional-runtime.js';
export type { DownloadProgress } from './hub-download.js';
export { acceptedLicences, isAcceptedLicence } from './licence-policy.js';
export {
  type AddLocalModelOptions,
  type AddLocalModelResult,
  addLocalModel,
  LOCAL_REVISION,
} from './local-model-import.js';
export { type LocalModels, withLocalModels } from './local-models.js';
export {
  type IncompleteModel,
  type InstalledModel,
  MANIFEST_FILE,
  ModelCache,
  type ModelManifest,
} from './model-cache.js';
export {
  DEFAULT_HUB_ENDPOINT,
  type PullEvent,
  type PullOptions,
  type PullResult,
  pullModel,
} from './model-pull.js';
export { type ModelReference, ModelReferenceError, parseModelReference } from './model-reference.js';
export { PullError, type PullErrorCode } from './pull-error.js';
export {
  DEFAULT_PULL_MODEL,
  findRecommendedModel,
  RECOMMENDED_MODELS,
  type RecommendedFile,
  type RecommendedModel,
  type ReportedAccuracy,
} from './recommended-models.js';
