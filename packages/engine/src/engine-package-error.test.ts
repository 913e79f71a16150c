import { describe, expect, it } from 'vitest';
import { CatalogConfigError } from './catalog/catalog-config-error.js';
import { ModelNotFoundError } from './catalog/model-not-found-error.js';
import { EnginePackageError } from './engine-package-error.js';
import { ModelReferenceError } from './models/model-reference.js';
import { PullError } from './models/pull-error.js';

describe('EnginePackageError', () => {
  const errors = [
    new CatalogConfigError('models[0].kind: unknown'),
    new ModelNotFoundError('gpt-9', ['arbiter-1.0.0']),
    new PullError('offline', 'no network'),
    new ModelReferenceError('not a reference'),
  ];

  it('is the root of every error the package throws of its own, recognised by its marker', () => {
    for (const error of errors) expect(EnginePackageError.isInstance(error)).toBe(true);
    expect(EnginePackageError.isInstance(new Error('x'))).toBe(false);
    expect(EnginePackageError.isInstance({ name: 'PullError', code: 'offline' })).toBe(false);
  });

  it('keeps each kind apart from the others', () => {
    const [catalog, notFound, pull, reference] = errors;
    expect(PullError.isInstance(pull)).toBe(true);
    expect(PullError.isInstance(catalog)).toBe(false);
    expect(ModelReferenceError.isInstance(reference)).toBe(true);
    expect(ModelReferenceError.isInstance(notFound)).toBe(false);
    expect(ModelNotFoundError.isInstance(notFound)).toBe(true);
    expect(CatalogConfigError.isInstance(pull)).toBe(false);
  });
});
