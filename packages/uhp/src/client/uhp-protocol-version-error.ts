import { UhpError } from './uhp-error.js';

const MARKER = Symbol.for('arbiter.uhp.UhpProtocolVersionError');

/**
 * The server does not speak this client's protocol version. Asking again cannot change that, so it is
 * never retryable; `supported` lists what the server offers so the message can say which client to use.
 */
export class UhpProtocolVersionError extends UhpError {
  readonly [MARKER] = true;
  readonly code = 'unsupported_protocol_version';
  readonly isRetryable = false;
  readonly clientVersion: string;
  readonly supported: readonly string[];

  constructor(clientVersion: string, supported: readonly string[], options?: { cause?: unknown }) {
    super(
      `The server speaks UHP ${supported.join(', ') || 'no version'}; this client speaks ${clientVersion}.`,
      options,
    );
    this.name = 'UhpProtocolVersionError';
    this.clientVersion = clientVersion;
    this.supported = supported;
  }

  static override isInstance(value: unknown): value is UhpProtocolVersionError {
    return typeof value === 'object' && value !== null && MARKER in value;
  }
}
