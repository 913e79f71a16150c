import type { DecisionRequest } from '../wire/request.js';
import type { SkipReason } from './decide-result.js';

/**
 * Carries one validated, redacted request to something that answers it, once. Retries, the time
 * budget and response validation belong to `DecisionClient`, so every transport gets them alike.
 * A transport reports failures as values and does not throw.
 */
export interface DecisionTransport {
  /** Shown in skip messages: `http`, `in-process`, `stub`. */
  readonly name: string;
  /**
   * `options.signal` aborts when the call's budget expires or its caller aborts. It is made when
   * first read (see `CallCancellation`), so read it where the work can use it, not before.
   */
  send(request: DecisionRequest, options: { readonly signal: AbortSignal }): Promise<TransportOutcome>;
}

export type TransportOutcome = TransportResponse | TransportFailure;

export interface TransportResponse {
  ok: true;
  /** The response body as received; the client validates it against the wire schema. */
  body: unknown;
}

export interface TransportFailure {
  ok: false;
  reason: Exclude<SkipReason, 'timeout' | 'aborted'> | 'aborted';
  message: string;
  status?: number;
  /** Whether another attempt may succeed (429, 5xx, dropped connections). */
  retryable: boolean;
  /** Server-requested wait before the next attempt (`Retry-After`), in milliseconds. */
  retryAfterMs?: number;
}
