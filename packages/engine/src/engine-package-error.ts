const marker = Symbol.for('arbiter.engine.EnginePackageError');

/**
 * The root of the errors `@arbiter/engine` throws of its own: a catalog that does not load, a model
 * the catalog lacks, a pull that stops, a model reference that does not parse. (What an engine
 * answers a request with is the specification's `EngineError`, from `@arbiter/decision`.) The check
 * reads a marker, as the AI SDK's `AISDKError.isInstance` does, so it holds across copies of the package.
 */
export class EnginePackageError extends Error {
  readonly [marker] = true;

  static isInstance(error: unknown): error is EnginePackageError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
