import { EnginePackageError } from '../engine-package-error.js';

const marker = Symbol.for('arbiter.catalog-config-error');

/** The catalog configuration is invalid; `message` names the offending entry and field. */
export class CatalogConfigError extends EnginePackageError {
  readonly [marker] = true;
  override readonly name = 'CatalogConfigError';

  static override isInstance(error: unknown): error is CatalogConfigError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
