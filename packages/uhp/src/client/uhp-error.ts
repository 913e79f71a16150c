const MARKER = Symbol.for('arbiter.uhp.UhpError');

/**
 * The root of every error the UHP client throws, so a caller can tell the client's refusals from its own
 * bugs with one check. `isInstance` reads a marker rather than the prototype chain, as the AI SDK's
 * `AISDKError.isInstance` does: two copies of this package in one process still recognise each other.
 */
export class UhpError extends Error {
  readonly [MARKER] = true;

  static isInstance(value: unknown): value is UhpError {
    return typeof value === 'object' && value !== null && MARKER in value;
  }
}
