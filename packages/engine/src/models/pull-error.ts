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
  | 'too_many_redirects'
  /** The server sent more bytes than it announced for the file. */
  | 'oversized'
  /** A symbolic link inside the model cache, where a pull would write. */
  | 'unsafe_cache';

/** Why `models pull` stopped. The message names the repository and file; never a token. */
export class PullError extends EnginePackageError {
  readonly [marker] = true;
  override readonly name = 'PullError';
  /** For `network`: the short reason ("cannot resolve huggingface.co (ENOTFOUND)"), without the hint. */
  readonly reason: string | undefined;
  constructor(
    readonly code: PullErrorCode,
    message: string,
    options?: { cause?: unknown; reason?: string },
  ) {
    super(message, options);
    this.reason = options?.reason;
  }

  static override isInstance(error: unknown): error is PullError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
