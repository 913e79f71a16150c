import path from 'node:path';
import { type DecisionEngine, EngineError } from '@arbiter/decision';
import { withCalibration } from '../calibrated-engine.js';
import { defineEngineKind, type EngineKindContext } from '../catalog/engine-kind.js';
import { loadOnFirstUse } from '../catalog/load-on-first-use.js';
import { ModelCache } from '../models/model-cache.js';
import type { NliEngine } from './nli-engine.js';
import { type NliEngineConfig, nliEngineConfigSchema } from './nli-engine-config.js';

/**
 * Catalog engine kind `nli`. The entry is validated when the catalog loads; the model (and
 * onnxruntime's native library) loads when the model first answers, so a server whose catalog
 * names a model that is not pulled yet still starts and says what to do on the first request.
 */
export const nliEngineKind = defineEngineKind({
  configSchema: nliEngineConfigSchema,
  create: (config: NliEngineConfig, context) => deferredNliEngine(config, context),
});

/**
 * Pack analysers keep answering their own packs (the tool gate's requests go to its analysers,
 * never to the NLI model), so `arbiter-latest` can follow a pulled NLI model without weakening
 * the gate; every other request goes to the model, loaded on first use.
 */
function deferredNliEngine(config: NliEngineConfig, context: EngineKindContext): DecisionEngine {
  // Not remembered when it fails: after `arbiter models pull`, the next request loads the model.
  const load = loadOnFirstUse(() => loadNliEngine(config, context.modelCacheDir));
  return {
    specificationVersion: 'v1',
    engineId: 'nli',
    evaluate: async (options) => {
      const packName = options.pack?.name;
      const analyser = context.analysers.find(
        (candidate) => candidate.packName === packName && candidate.accepts(options),
      );
      if (analyser) return analyser.evaluate(options);
      return withCalibration(await load(), config.calibration).evaluate(options);
    },
  };
}

export async function loadNliEngine(config: NliEngineConfig, modelCacheDir?: string): Promise<NliEngine> {
  let dir: string;
  if (config.path !== undefined) {
    dir = path.resolve(config.path);
  } else {
    const cache = new ModelCache(modelCacheDir ?? ModelCache.defaultRoot());
    const installed = cache.find(config.model!);
    if (!installed) {
      throw new EngineError({
        code: 'engine_unavailable',
        message: `the nli model \`${config.model}\` is not in the model cache (${cache.root}); run \`arbiter models pull ${config.model}\``,
        isRetryable: false,
      });
    }
    const damage = cache.damage(installed);
    if (damage) {
      throw new EngineError({
        code: 'engine_unavailable',
        message: `the nli model \`${config.model}\` in the cache is damaged (${damage}); run \`arbiter models rm ${config.model}\` and pull it again`,
        isRetryable: false,
      });
    }
    dir = installed.dir;
  }
  const [{ CrossEncoder }, { NliEngine }] = await Promise.all([
    import('./cross-encoder.js'),
    import('./nli-engine.js'),
  ]);
  let model: Awaited<ReturnType<typeof CrossEncoder.load>>;
  try {
    model = await CrossEncoder.load(dir, {
      onnxFile: config.onnxFile,
      threads: config.threads,
      maxLength: config.maxLength,
    });
  } catch (error) {
    throw new EngineError({
      code: 'engine_unavailable',
      message: `the nli model could not be loaded: ${(error as Error).message}`,
      isRetryable: false,
      cause: error,
    });
  }
  return new NliEngine(model, config);
}
