import { EngineError } from '@arbiter/decision';
import { describe, expect, it } from 'vitest';
import {
  importOptionalRuntime,
  isRuntimeInstalled,
  LOCAL_ENGINES_SCRIPT,
  LOCAL_MODEL_RUNTIMES,
  localRuntimeInstallCommand,
} from './optional-runtime.js';

describe('importOptionalRuntime', () => {
  it('turns a missing runtime package into engine_unavailable naming the package', async () => {
    const failure = await importOptionalRuntime(
      'arbiter-no-such-runtime',
      () => import(['arbiter-no-such-runtime', 'index.js'].join('/')),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EngineError);
    expect((failure as EngineError).code).toBe('engine_unavailable');
    expect((failure as EngineError).message).toContain('npm install arbiter-no-such-runtime');
  });

  it('passes any other failure through unchanged', async () => {
    const original = new Error('the model file is corrupt');
    await expect(importOptionalRuntime('x', () => Promise.reject(original))).rejects.toBe(original);
  });

  it('returns the module when it loads', async () => {
    await expect(importOptionalRuntime('node:path', () => import('node:path'))).resolves.toHaveProperty(
      'join',
    );
  });

  it('names the one command that adds a missing local-model runtime', async () => {
    // What Node throws for a package that is not installed (import of a bare specifier).
    const notFound = Object.assign(new Error("Cannot find package 'onnxruntime-node' imported from x.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const failure = await importOptionalRuntime('onnxruntime-node', () => Promise.reject(notFound)).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(EngineError);
    expect((failure as EngineError).code).toBe('engine_unavailable');
    // This test runs in a clone of the repository, whose root package.json has the script.
    expect((failure as EngineError).message).toContain(`\`npm run ${LOCAL_ENGINES_SCRIPT}\``);
    expect((failure as EngineError).message).toContain('onnxruntime-node is not installed');
  });
});

describe('local-model runtimes', () => {
  it('are optional peer dependencies of the engine, one per local engine kind', async () => {
    const manifest = (await import('../package.json', { with: { type: 'json' } })).default as {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional: boolean }>;
      dependencies: Record<string, string>;
    };
    for (const runtime of Object.values(LOCAL_MODEL_RUNTIMES)) {
      expect(manifest.peerDependencies[runtime]).toBeDefined();
      expect(manifest.peerDependenciesMeta[runtime]?.optional).toBe(true);
      expect(manifest.dependencies[runtime]).toBeUndefined();
    }
  });

  it('tells an installed package from a missing one without loading it', () => {
    expect(isRuntimeInstalled('zod')).toBe(true);
    expect(isRuntimeInstalled('arbiter-no-such-runtime')).toBe(false);
  });

  it('is added in a checkout by the root script', () => {
    expect(localRuntimeInstallCommand('node-llama-cpp')).toBe(`npm run ${LOCAL_ENGINES_SCRIPT}`);
  });
});
