import { type DecisionEngine, EngineError } from '@arbiter/decision';
import { withCalibration } from '../calibrated-engine.js';
import { defineEngineKind, type EngineKindContext } from '../catalog/engine-kind.js';
import { loadOnFirstUse } from '../catalog/load-on-first-use.js';
import { ModelCache } from '../models/model-cache.js';
import { importOptionalRuntime } from '../optional-runtime.js';
import { type LlamaCppEngineConfig, llamaCppEngineConfigSchema } from './llama-cpp-config.js';

const LLAMA_CPP_ENGINE_ID = 'llama-cpp';

/**
 * Catalog engine kind `llama-cpp`: a GGUF model run in process by llama.cpp.
 *
 * The catalog validates the entry when it loads; node-llama-cpp (its native binding) and the engine
 * are imported, and the model loaded, when the model first answers. A server without such a model
 * never loads them.
 */
export const llamaCppEngineKind = defineEngineKind({
  configSchema: llamaCppEngineConfigSchema,
  create: (config: LlamaCppEngineConfig, context) => deferredEngine(config, context),
});

function deferredEngine(config: LlamaCppEngineConfig, context: EngineKindContext): DecisionEngine {
  // A model not yet pulled, or a runtime not installed, is tried again on the next request.
  const load = loadOnFirstUse(async () => {
    const path = ggufPath(config.model, context);
    const module = await importOptionalRuntime('node-llama-cpp', async () => {
      // The engine's modules import node-llama-cpp only when they first need it, so loading them
      // proves nothing: the runtime's JavaScript is imported here (its native binding loads later).
      await import('node-llama-cpp');
      return import('./llama-cpp-engine.js');
    });
    return module.createLlamaCppEngine({ ...config, model: { path } });
  });
  return {
    specificationVersion: 'v1',
    engineId: LLAMA_CPP_ENGINE_ID,
    evaluate: async (options) => withCalibration(await load(), config.calibration).evaluate(options),
  };
}

/** The GGUF file a catalog entry names: its path, or the one GGUF of a verified cached model. */
function ggufPath(source: LlamaCppEngineConfig['model'], context: EngineKindContext): string {
  if (typeof source !== 'string') return source.path;
  const cache = new ModelCache(context.modelCacheDir ?? ModelCache.defaultRoot());
  const found = cache.find(source);
  const unavailable = (message: string) =>
    new EngineError({ code: 'engine_unavailable', message, isRetryable: false });
  if (!found)
    throw unavailable(
      `the model \`${source}\` is not in the local model cache; run \`arbiter models pull ${source}\``,
    );
  const damage = cache.damage(found);
  if (damage) throw unavailable(`the cached model \`${source}\` is damaged (${damage}); pull it again`);
  const ggufs = found.manifest.files.filter((file) => file.path.endsWith('.gguf'));
  if (ggufs.length !== 1) {
    throw unavailable(
      `the cached model \`${source}\` holds ${ggufs.length} GGUF files; name one with \`model: { path }\``,
    );
  }
  return cache.fileOf(found.dir, ggufs[0]!.path);
}
