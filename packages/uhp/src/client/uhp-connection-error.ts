import { UhpError } from './uhp-error.js';

const MARKER = Symbol.for('arbiter.uhp.UhpConnectionError');

/** The server could not be reached, or the connection broke before an answer arrived. */
export class UhpConnectionError extends UhpError {
  readonly [MARKER] = true;
  readonly isRetryable = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UhpConnectionError';
  }

  static override isInstance(value: unknown): value is UhpConnectionError {
    return typeof value === 'object' && value !== null && MARKER in value;
  }
}
