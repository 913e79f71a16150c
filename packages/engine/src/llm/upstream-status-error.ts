import { EngineError, type EngineErrorCode } from '@arbiter/decision';

/**
 * The model server answered with an HTTP error status. Still an `EngineError` for the server's status
 * mapping; the status lets the engine react to specific refusals (logprobs rejected, no `/tokenize`).
 */
export class UpstreamStatusError extends EngineError {
  readonly status: number;

  constructor(options: { code: EngineErrorCode; message: string; status: number; isRetryable?: boolean }) {
    super(options);
    this.status = options.status;
  }
}
