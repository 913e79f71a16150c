import { parseRetryAfter } from '@arbiter/http-retry';
import { uhpErrorEnvelopeSchema } from '../wire/error.js';
import { type UhpErrorCode, type UhpErrorCodeEntry, uhpErrorCodeEntry } from '../wire/error-codes.js';
import { UhpError } from './uhp-error.js';

/**
 * Codes this client gives errors of its own making: an answer that is not the specification's
 * envelope (`invalid_envelope`), or a successful answer that does not match its schema
 * (`invalid_response`). No server sends them.
 */
export const UHP_CLIENT_ERROR_CODES = ['invalid_envelope', 'invalid_response'] as const;
export type UhpClientErrorCode = (typeof UHP_CLIENT_ERROR_CODES)[number];

const MARKER = Symbol.for('arbiter.uhp.UhpApiError');

/**
 * A request the server refused: the error envelope of a non-2xx answer, typed. `status` is the HTTP
 * status of the answer (a server never reached is a {@link UhpConnectionError} instead); `code`, `type`, `param` and `detail` come from the
 * envelope. Built only by {@link createUhpApiError} so every caller sees the same mapping.
 */
export class UhpApiError extends UhpError {
  readonly [MARKER] = true;
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly param: string | null;
  readonly detail: Record<string, unknown> | null;
  /** Milliseconds the server asked us to wait (`Retry-After` or `detail.retry_after_ms`), when it said. */
  readonly retryAfterMs: number | null;

  constructor(init: {
    status: number;
    type: string;
    code: string;
    message: string;
    param?: string | null;
    detail?: Record<string, unknown> | null;
    retryAfterMs?: number | null;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'UhpApiError';
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.param = init.param ?? null;
    this.detail = init.detail ?? null;
    this.retryAfterMs = init.retryAfterMs ?? null;
  }

  /** The registry's entry for this code; undefined for a code this client does not know (another vendor's). */
  get registered(): UhpErrorCodeEntry | undefined {
    return uhpErrorCodeEntry(this.code);
  }

  /** Whether the server answered with `code`; a code neither registered nor the client's own does not compile. */
  is(code: UhpErrorCode | UhpClientErrorCode): boolean {
    return this.code === code;
  }

  /**
   * A registered code says whether asking again may succeed (`rate_limited`, `harness_unavailable`:
   * yes; `quota_exhausted`, `preview_unavailable`, any client error: no). An unknown code falls back
   * on its status: server failures yes, everything else no.
   */
  get isRetryable(): boolean {
    const registered = this.registered;
    if (registered) return registered.retryable;
    return this.status >= 500;
  }

  static override isInstance(value: unknown): value is UhpApiError {
    return typeof value === 'object' && value !== null && MARKER in value;
  }
}

/**
 * The one factory from an HTTP answer to a typed error. A body that is not the specification's
 * envelope still becomes a `UhpApiError` (code `invalid_envelope`), quoting only its status, because a
 * proxy's HTML error page must not be shown as if the server had said it.
 */
export function createUhpApiError(status: number, body: unknown, headers: Headers): UhpApiError {
  const parsed = uhpErrorEnvelopeSchema.safeParse(body);
  const detailRetry = parsed.success ? parsed.data.error.detail?.retry_after_ms : undefined;
  const retryAfterMs =
    parseRetryAfter(headers.get('retry-after')) ?? (typeof detailRetry === 'number' ? detailRetry : null);
  if (!parsed.success) {
    return new UhpApiError({
      status,
      type: status >= 500 ? 'server_error' : 'invalid_request_error',
      code: 'invalid_envelope',
      message: `The server answered HTTP ${status} without a UHP error envelope.`,
      retryAfterMs,
    });
  }
  const { type, code, message, param, detail } = parsed.data.error;
  return new UhpApiError({
    status,
    type,
    code,
    message,
    param: param ?? null,
    detail: detail ?? null,
    retryAfterMs,
  });
}
