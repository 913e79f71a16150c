import { EnginePackageError } from '../engine-package-error.js';

const marker = Symbol.for('arbiter.engine.PullError');

export type PullErrorCode =
  | 'offline'
  | 'network'
  | 'not_found'
  | 'forbidden'
  | 'http_error'
  | 'checksum_mismatch'
  | 'unverifiable'
  | 'licence_not_accepted'
  | 'ambiguous_files'
  | 'too_many_redirects';

/** Why `models pull` stopped. The message names the repository and file; never a token. */
export class PullError extends EnginePackageError {
  readonly [marker] = true;
  override readonly name = 'PullError';
  constructor(
    readonly code: PullErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  static override isInstance(error: unknown): error is PullError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
