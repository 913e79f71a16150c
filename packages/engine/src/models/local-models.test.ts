import { describe, expect, it } from 'vitest';
import { withLocalModels } from './local-models.js';
import type { InstalledModel, ModelCache } from './model-cache.js';

/** A cache holding only the default NLI model, pulled on a fixed day. */
const cacheWithDefaultModel = {
  find: (reference: string) =>
    reference === 'nli-deberta-v3-xsmall'
      ? ({ manifest: { pulledAt: '2026-11-01T00:00:00.000Z' } } as InstalledModel)
      : undefined,
} as unknown as ModelCache;

describe('withLocalModels', () => {
  it('points arbiter-latest at a pulled model whose runtime is installed', () => {
    const local = withLocalModels(undefined, cacheWithDefaultModel, ['builtin', 'nli'], () => true);
    expect(local.latest).toBe('arbiter-nli-xsmall-1.0.0');
    expect(local.config.aliases?.['arbiter-latest']).toBe('arbiter-nli-xsmall-1.0.0');
  });

  it('lists a pulled model without its runtime but keeps arbiter-latest on the built-in engine', () => {
    const asked: string[] = [];
    const local = withLocalModels(undefined, cacheWithDefaultModel, ['builtin', 'nli'], (name) => {
      asked.push(name);
      return false;
    });
    expect(asked).toEqual(['onnxruntime-node']);
    expect(local.latest).toBeNull();
    expect(local.config.aliases).toBeUndefined();
    expect(local.config.models?.map((model) => model.name)).toEqual(['arbiter-nli-xsmall-1.0.0']);
  });
});
