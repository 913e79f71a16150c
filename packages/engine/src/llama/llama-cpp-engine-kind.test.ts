import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineError } from '@arbiter/decision';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelCatalog } from '../catalog/model-catalog.js';
import { ModelCache } from '../models/model-cache.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/tiny-random-llama.gguf', import.meta.url));
const roots: string[] = [];

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A model cache holding the fixture GGUF as a pulled model named `tiny-llama`. */
function cacheWithFixture(): ModelCache {
  const root = mkdtempSync(path.join(os.tmpdir(), 'arbiter-llama-cache-'));
  roots.push(root);
  return pullFixtureInto(new ModelCache(root));
}

/** Puts the fixture into `cache` as `arbiter models pull` would leave it: files, then the manifest. */
function pullFixtureInto(cache: ModelCache): ModelCache {
  const root = cache.root;
  const dir = cache.revisionDir('test/tiny-llama', 'abc123');
  cache.ensureDir(dir);
  copyFileSync(FIXTURE, path.join(dir, 'model.gguf'));
  cache.writeManifest(dir, {
    format: 1,
    repo: 'test/tiny-llama',
    revision: 'abc123',
    name: 'tiny-llama',
    engineKind: 'llama-cpp',
    licence: 'apache-2.0',
    files: [{ path: 'model.gguf', bytes: statSync(FIXTURE).size, sha256: 'not-checked-here' }],
    pulledAt: '2026-11-23T00:00:00.000Z',
  });
  writeFileSync(path.join(root, 'unrelated.txt'), 'x');
  return cache;
}

function catalogFor(model: string, cache: ModelCache): ModelCatalog {
  return new ModelCatalog({
    analysers: [],
    config: {
      builtinModels: false,
      defaultModel: 'local-1.0.0',
      models: [{ name: 'local-1.0.0', release_date: '2026-11-23', engine: { kind: 'llama-cpp', model } }],
    },
    modelCacheDir: cache.root,
  });
}

const questions = { urgent: { type: 'noul', instructions: 'Does this need action today?' } } as const;

describe('llama-cpp engine kind: a model named from the local cache', () => {
  it('loads the one GGUF of a cached model named by its pulled name', async () => {
    const cache = cacheWithFixture();
    const { engine } = catalogFor('tiny-llama', cache).resolve('local-1.0.0');
    const result = await engine.evaluate({ state: 'The build is red.', questions });
    const answer = result.answers.urgent;
    if (answer?.type !== 'noul') throw new Error(`expected a noul answer, got ${JSON.stringify(answer)}`);
    expect(answer.noul).toBeGreaterThanOrEqual(0);
    expect(answer.noul).toBeLessThanOrEqual(1);
  });

  it('says which pull to run when the named model is not in the cache', async () => {
    const cache = cacheWithFixture();
    const { engine } = catalogFor('nowhere/missing', cache).resolve('local-1.0.0');
    const failure = await engine.evaluate({ state: 'x', questions }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EngineError);
    expect((failure as EngineError).code).toBe('engine_unavailable');
    expect((failure as EngineError).message).toContain('arbiter models pull nowhere/missing');
  });

  it('answers once the model is pulled, without a restart (a failed load is not remembered)', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'arbiter-llama-cache-'));
    roots.push(root);
    const cache = new ModelCache(root);
    const { engine } = catalogFor('tiny-llama', cache).resolve('local-1.0.0');
    const before = await engine.evaluate({ state: 'x', questions }).catch((error: unknown) => error);
    expect((before as EngineError).code).toBe('engine_unavailable');
    pullFixtureInto(cache);
    const after = await engine.evaluate({ state: 'The build is red.', questions });
    expect(after.answers.urgent?.type).toBe('noul');
  });

  it('refuses a cached model whose file was truncated after the pull', async () => {
    const cache = cacheWithFixture();
    const installed = cache.find('tiny-llama');
    writeFileSync(path.join(installed?.dir ?? '', 'model.gguf'), 'cut');
    const { engine } = catalogFor('tiny-llama', cache).resolve('local-1.0.0');
    const failure = await engine.evaluate({ state: 'x', questions }).catch((error: unknown) => error);
    expect((failure as EngineError).message).toContain('damaged');
  });
});
