const marker = Symbol.for('arbiter.engine-error');

export type EngineErrorCode = 'engine_error' | 'engine_unavailable' | 'engine_timeout';

/**
 * An engine could not produce answers. Engines throw this rather than invent an answer;
 * the server maps `code` to a 502/503/504 response, the client to a visible skip.
 */
export class EngineError extends Error {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by `isInstance` through `marker in error`, across copies of this package.
  private readonly [marker] = true;
  override readonly name = 'EngineError';
  readonly code: EngineErrorCode;
  readonly isRetryable: boolean;

  constructor(options: { code: EngineErrorCode; message: string; isRetryable?: boolean; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.code = options.code;
    this.isRetryable = options.isRetryable ?? options.code !== 'engine_error';
  }

  static isInstance(error: unknown): error is EngineError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
