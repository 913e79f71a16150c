import type { DecisionEngine } from '@arbiter/decision';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CatalogConfigError } from './catalog-config-error.js';
import { defineEngineKind } from './engine-kind.js';
import { ModelCatalog } from './model-catalog.js';
import { ModelNotFoundError } from './model-not-found-error.js';
import { parseModelPin } from './model-pin.js';

const fakeKind = defineEngineKind({
  configSchema: z.object({ kind: z.literal('fake'), label: z.string() }),
  create: (config): DecisionEngine => ({
    specificationVersion: 'v1',
    engineId: `fake:${config.label}`,
    evaluate: async () => ({ answers: {}, usage: { input_tokens: null, output_tokens: null } }),
  }),
});

const release = '2026-01-01';

describe('ModelCatalog', () => {
  it('serves the embedded model under its pin, -latest and jev-latest', () => {
    const catalog = new ModelCatalog({ analysers: [] });
    for (const name of ['arbiter-1.0.0', 'arbiter-latest', 'jev-latest', undefined]) {
      const resolved = catalog.resolve(name);
      expect(resolved.pin).toBe('arbiter-1.0.0');
      expect(resolved.engine.engineId).toBe('builtin');
    }
    expect(catalog.list().map((row) => [row.name, row.kind, row.target])).toEqual([
      ['arbiter-1.0.0', 'pin', 'arbiter-1.0.0'],
      ['arbiter-latest', 'alias', 'arbiter-1.0.0'],
      ['jev-latest', 'alias', 'arbiter-1.0.0'],
    ]);
  });

  it('lists what exists when a model is unknown', () => {
    const catalog = new ModelCatalog({ analysers: [] });
    const error = (() => {
      try {
        catalog.resolve('gpt-9');
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(ModelNotFoundError.isInstance(error)).toBe(true);
    expect((error as ModelNotFoundError).message).toBe(
      'model `gpt-9` does not exist; available models: arbiter-1.0.0, arbiter-latest, jev-latest',
    );
  });

  it('follows the newest release version with -latest, and operator aliases override embedded ones', () => {
    const catalog = new ModelCatalog({
      analysers: [],
      engineKinds: { fake: fakeKind },
      config: {
        models: [
          { name: 'tiny-1.2.0', release_date: release, engine: { kind: 'fake', label: 'a' } },
          { name: 'tiny-1.10.0', release_date: release, engine: { kind: 'fake', label: 'b' } },
          { name: 'tiny-2.0.0-rc.1', release_date: release, engine: { kind: 'fake', label: 'c' } },
        ],
        aliases: { 'jev-latest': 'tiny-latest', fast: 'jev-latest' },
      },
    });
    expect(catalog.resolve('tiny-latest').pin).toBe('tiny-1.10.0');
    expect(catalog.resolve('tiny-latest').engine.engineId).toBe('fake:b');
    expect(catalog.resolve('fast').pin).toBe('tiny-1.10.0');
    expect(catalog.resolve('tiny-2.0.0-rc.1').engine.engineId).toBe('fake:c');
    expect(catalog.resolve().pin).toBe('arbiter-1.0.0');
  });

  it('rejects bad configuration naming the entry', () => {
    const attempt =
      (config: object, engineKinds = { fake: fakeKind }) =>
      () =>
        new ModelCatalog({ analysers: [], config, engineKinds });
    expect(
      attempt({ models: [{ name: 'nope', release_date: release, engine: { kind: 'builtin' } }] }),
    ).toThrow(/a model name must be a pin/);
    expect(
      attempt({ models: [{ name: 'x-1.0.0', release_date: release, engine: { kind: 'warp' } }] }),
    ).toThrow(
      'catalog.models[1] (x-1.0.0): unknown engine kind `warp`; known kinds: builtin, openai-compatible, nli, llama-cpp, fake',
    );
    expect(
      attempt({ models: [{ name: 'x-1.0.0', release_date: release, engine: { kind: 'fake' } }] }),
    ).toThrow(/catalog.models\[1\] \(x-1.0.0\): invalid engine configuration:[\s\S]*label/);
    expect(attempt({ aliases: { loop: 'pool', pool: 'loop' } })).toThrow(/catalog.aliases.loop/);
    expect(attempt({ aliases: { dangling: 'nothing-1.0.0' } })).toThrow(/catalog.aliases.dangling/);
    expect(attempt({ builtinModels: false })).toThrow(CatalogConfigError);
    expect(attempt({ defaultModel: 'missing' })).toThrow(/catalog.defaultModel: `missing`/);
    expect(attempt({ surprise: true })).toThrow(/surprise/);
  });

  it('drops embedded aliases whose target is gone', () => {
    const catalog = new ModelCatalog({
      analysers: [],
      engineKinds: { fake: fakeKind },
      config: {
        builtinModels: false,
        defaultModel: 'tiny-latest',
        models: [{ name: 'tiny-1.0.0', release_date: release, engine: { kind: 'fake', label: 'a' } }],
      },
    });
    expect(catalog.names()).toEqual(['tiny-1.0.0', 'tiny-latest']);
  });
});

describe('parseModelPin', () => {
  it('splits <model>-<semver> and refuses everything else', () => {
    expect(parseModelPin('arbiter-1.0.0')).toEqual({ model: 'arbiter', version: '1.0.0' });
    expect(parseModelPin('qwen3-coder-30b-2.1.0-rc.1')).toEqual({
      model: 'qwen3-coder-30b',
      version: '2.1.0-rc.1',
    });
    expect(parseModelPin('arbiter-latest')).toBeNull();
    expect(parseModelPin('arbiter-1.0')).toBeNull();
    expect(parseModelPin('1.0.0')).toBeNull();
  });
});
