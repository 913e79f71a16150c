import type { DecisionErrorCode } from '@arbiter/decision';

const marker = Symbol.for('arbiter.api-error');

/** The `type` member of the error envelope: the family a code belongs to. */
export type ApiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'engine_error'
  | 'api_error';

/**
 * The System One HTTP profile's error categories (`detail.error_type`). Its clients know these
 * four; everything else is `unknown`, and `error.code` keeps the precise reason.
 */
export type SystemOneErrorType = 'authentication_error' | 'timeout' | 'tokens_exceeded' | 'unknown';

function systemOneErrorType(statusCode: number, code: DecisionErrorCode): SystemOneErrorType {
  if (statusCode === 401) return 'authentication_error';
  if (code === 'engine_timeout') return 'timeout';
  if (code === 'context_too_long' || code === 'body_too_large') return 'tokens_exceeded';
  return 'unknown';
}

/**
 * A failure with a known status and code, rendered as the Decision API's error envelope plus the
 * System One HTTP profile's `detail`, so clients that read either shape understand it.
 */
export class ApiError extends Error {
  readonly [marker] = true;
  override readonly name = 'ApiError';
  readonly statusCode: number;
  readonly type: ApiErrorType;
  readonly code: DecisionErrorCode;
  readonly param: string | null;
  readonly detail: unknown;

  constructor(options: {
    statusCode: number;
    type: ApiErrorType;
    code: DecisionErrorCode;
    message: string;
    param?: string | null;
    detail?: unknown;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    this.statusCode = options.statusCode;
    this.type = options.type;
    this.code = options.code;
    this.param = options.param ?? null;
    this.detail = options.detail;
  }

  static isInstance(error: unknown): error is ApiError {
    return typeof error === 'object' && error !== null && marker in error;
  }

  toBody() {
    return {
      error: {
        type: this.type,
        code: this.code,
        message: this.message,
        param: this.param,
        ...(this.detail === undefined ? {} : { detail: this.detail }),
      },
      detail: { message: this.message, error_type: systemOneErrorType(this.statusCode, this.code) },
    };
  }
}
