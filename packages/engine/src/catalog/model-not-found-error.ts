import { EnginePackageError } from '../engine-package-error.js';

const marker = Symbol.for('arbiter.model-not-found-error');

/** A request named a model the catalog does not have. Lists what exists. */
export class ModelNotFoundError extends EnginePackageError {
  readonly [marker] = true;
  override readonly name = 'ModelNotFoundError';
  readonly code = 'model_not_found';
  readonly model: string;
  readonly available: readonly string[];

  constructor(model: string, available: readonly string[]) {
    super(`model \`${model}\` does not exist; available models: ${available.join(', ')}`);
    this.model = model;
    this.available = available;
  }

  static override isInstance(error: unknown): error is ModelNotFoundError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
