import path from 'node:path';
import {
  addLocalModel,
  DEFAULT_PULL_MODEL,
  findRecommendedModel,
  isRuntimeInstalled,
  LOCAL_MODEL_RUNTIMES,
  localRuntimeInstallCommand,
  ModelCache,
  ModelReferenceError,
  PullError,
  pullModel,
  RECOMMENDED_MODELS,
} from '@arbiter/engine/models';
import { invocationIo } from '../../invocation-io.js';
import { EXIT_FAILURE, UsageError } from '../usage-error.js';
import { formatBytes, pullProgressRenderer } from './pull-progress.js';

export interface PullCommandOptions {
  file?: string[];
  offline?: boolean;
  acceptLicense?: boolean;
  modelsDir?: string;
}

export interface AddCommandOptions {
  file?: string[];
  license?: string;
  acceptLicense?: boolean;
  modelsDir?: string;
}

/** `arbiter models add <dir> <model>`: a model's files from a local directory, for a machine without network. */
export async function addCommand(
  source: string,
  reference: string,
  options: AddCommandOptions,
): Promise<number> {
  const cache = modelCacheOf(options.modelsDir);
  try {
    const result = await addLocalModel(source, reference, {
      cache,
      files: options.file,
      licence: options.license,
      acceptLicence: options.acceptLicense,
    });
    const { manifest, dir, bytes } = result.model;
    const what = `${manifest.name ?? manifest.repo} (${manifest.repo}@${manifest.revision.slice(0, 12)}, ${formatBytes(bytes)})`;
    invocationIo().writeStdout(
      `${result.alreadyInstalled ? 'Already in the cache' : 'Added'}: ${what} in ${dir}\n`,
    );
    return 0;
  } catch (error) {
    if (ModelReferenceError.isInstance(error)) throw new UsageError(error.message);
    if (PullError.isInstance(error)) {
      invocationIo().writeStderr(`arbiter models add: ${error.message}\n`);
      return EXIT_FAILURE;
    }
    throw error;
  }
}

export interface RemoveCommandOptions {
  modelsDir?: string;
}

export function modelCacheOf(modelsDir: string | undefined): ModelCache {
  return new ModelCache(modelsDir ? path.resolve(modelsDir) : ModelCache.defaultRoot());
}

export async function pullCommand(reference: string, options: PullCommandOptions): Promise<number> {
  const cache = modelCacheOf(options.modelsDir);
  try {
    const result = await pullModel(reference, {
      cache,
      offline: options.offline,
      acceptLicence: options.acceptLicense,
      files: options.file,
      onEvent: pullProgressRenderer(),
    });
    const { manifest, dir, bytes } = result.model;
    const what = `${manifest.name ?? manifest.repo} (${manifest.repo}@${manifest.revision.slice(0, 12)}, ${formatBytes(bytes)})`;
    invocationIo().writeStdout(
      `${result.alreadyInstalled ? 'Already in the cache' : 'Pulled'}: ${what} in ${dir}\n`,
    );
    return 0;
  } catch (error) {
    if (ModelReferenceError.isInstance(error)) throw new UsageError(error.message);
    if (PullError.isInstance(error)) {
      invocationIo().writeStderr(`arbiter models pull: ${error.message}\n`);
      return EXIT_FAILURE;
    }
    throw error;
  }
}

export async function removeCommand(reference: string, options: RemoveCommandOptions): Promise<number> {
  const cache = modelCacheOf(options.modelsDir);
  const removed = cache.remove(reference);
  if (removed.length === 0) {
    invocationIo().writeStderr(
      `arbiter models rm: \`${reference}\` is not in the model cache (${cache.root})\n`,
    );
    return EXIT_FAILURE;
  }
  for (const dir of removed) invocationIo().writeStdout(`Removed ${dir}\n`);
  return 0;
}

/**
 * What `npm start` (`arbiter serve --pull-default`) does before serving: when no NLI model is in
 * the cache and its runtime is installed, pull the small default one with progress. Skipped with
 * `ARBITER_NO_PULL=1`. Without the runtime, or without network, it says so in one line and the
 * server starts on the built-in engine; any other failure is reported the same way, never
 * swallowed, and never stops the server from starting.
 */
export async function pullDefaultModel(
  dataDir: string,
  say: (line: string) => void,
  runtimeInstalled: (packageName: string) => boolean = isRuntimeInstalled,
): Promise<void> {
  const noPull = process.env.ARBITER_NO_PULL;
  if (noPull && noPull !== '0') return;
  const model = findRecommendedModel(DEFAULT_PULL_MODEL)!;
  // The default install leaves the local-model runtimes out: a model nothing here can run is not
  // worth its download, and the server answers on the built-in engine meanwhile.
  const runtime = LOCAL_MODEL_RUNTIMES[model.engineKind];
  if (!runtimeInstalled(runtime)) {
    say(
      `Serving the built-in engine: the default model ${model.name} runs on ${runtime}, which the default install leaves out; add it with \`${localRuntimeInstallCommand(runtime)}\`, then start again to pull the model.`,
    );
    return;
  }
  const cache = new ModelCache(ModelCache.defaultRoot({ ...process.env, ARBITER_DATA_DIR: dataDir }));
  if (RECOMMENDED_MODELS.some((model) => model.engineKind === 'nli' && cache.find(model.name))) return;
  const size = model.files.reduce((sum, file) => sum + (file.approximateBytes ?? 0), 0);
  const render = pullProgressRenderer();
  let announced = false;
  try {
    await pullModel(model.name, {
      cache,
      onEvent: (event) => {
        // Announced once bytes flow, so that a machine without network prints only one line.
        if (event.type === 'resolved') return;
        if (!announced) {
          announced = true;
          say(
            `First start: pulling ${model.name} (~${formatBytes(size)}, ${model.licence}) into ${cache.root}; skip with ARBITER_NO_PULL=1`,
          );
        }
        render(event);
      },
    });
  } catch (error) {
    if (!PullError.isInstance(error)) throw error;
    const reason =
      error.code === 'network'
        ? `No network (${error.reason ?? error.message})`
        : `Pull failed (${error.message})`;
    say(`${reason}: serving the built-in engine; run \`arbiter models pull ${model.name}\` when online.`);
  }
}
