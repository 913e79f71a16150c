import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { EngineError } from '@arbiter/decision';

/**
 * The local-model runtimes: the native packages the in-process model engine kinds run on. The
 * default install leaves them out (together about 1 GB of prebuilt binaries for every platform
 * and GPU), so that the built-in engine and the server install in a few minutes; a user who turns
 * a local model on adds them with one command (`localRuntimeInstallCommand`). They are optional
 * peer dependencies of `@arbiter/engine`, whose `package.json` holds the version ranges.
 */
export const LOCAL_MODEL_RUNTIMES = {
  /** The `nli` engine kind (ONNX cross-encoders). */
  nli: 'onnxruntime-node',
  /** The `llama-cpp` engine kind (GGUF models). */
  'llama-cpp': 'node-llama-cpp',
} as const;

export type LocalModelRuntime = (typeof LOCAL_MODEL_RUNTIMES)[keyof typeof LOCAL_MODEL_RUNTIMES];

/** The root `package.json` of an Arbiter repository checkout, when this engine runs from one. */
const CHECKOUT_MANIFEST = new URL('../../../package.json', import.meta.url);
/** The script of the checkout's root `package.json` that adds the runtimes. */
export const LOCAL_ENGINES_SCRIPT = 'add-local-engines';

/** Whether a runtime package can be loaded from this engine, without loading it. */
export function isRuntimeInstalled(packageName: string): boolean {
  try {
    createRequire(import.meta.url).resolve(packageName);
    return true;
  } catch {
    return false;
  }
}

/**
 * The one command that adds the runtimes where this engine is installed: the checkout's npm script
 * in a clone of the repository (it installs every runtime at the versions the engine declares),
 * otherwise npm beside the installed `arbiter` (a global install of the packed CLI).
 */
export function localRuntimeInstallCommand(packageName: string): string {
  if (existsSync(CHECKOUT_MANIFEST)) {
    const manifest = JSON.parse(readFileSync(CHECKOUT_MANIFEST, 'utf8')) as {
      scripts?: Record<string, string>;
    };
    if (manifest.scripts?.[LOCAL_ENGINES_SCRIPT]) return `npm run ${LOCAL_ENGINES_SCRIPT}`;
  }
  const range = peerRangeOf(packageName);
  return `npm install -g ${packageName}${range ? `@${range}` : ''}`;
}

function peerRangeOf(packageName: string): string | undefined {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    peerDependencies?: Record<string, string>;
  };
  return manifest.peerDependencies?.[packageName];
}

/**
 * Imports the code of an engine kind that needs a local-model runtime. Without the runtime the
 * engine answers `engine_unavailable` naming the command that adds it, instead of a
 * module-resolution error.
 */
export async function importOptionalRuntime<T>(packageName: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const message = error instanceof Error ? error.message : '';
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && message.includes(packageName)) {
      const isLocalModelRuntime = (Object.values(LOCAL_MODEL_RUNTIMES) as string[]).includes(packageName);
      throw new EngineError({
        code: 'engine_unavailable',
        message: isLocalModelRuntime
          ? `${packageName} is not installed: the default install leaves the local-model runtimes out; add them with \`${localRuntimeInstallCommand(packageName)}\` (docs/engines.md, "Local-model runtimes")`
          : `${packageName} is not installed here; install it (npm install ${packageName}) to run this engine kind`,
        isRetryable: false,
        cause: error,
      });
    }
    throw error;
  }
}
