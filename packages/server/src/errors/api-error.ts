import {
  API_ERROR_REGISTRY,
  type ApiErrorCode,
  type ApiErrorEntry,
  type ApiErrorType,
  type OtherStatus,
} from './api-error-registry.js';

const marker = Symbol.for('arbiter.api-error');

/**
 * The System One HTTP profile's error categories (`detail.error_type`). Its clients know these
 * four; everything else is `unknown`, and `error.code` keeps the precise reason.
 */
export type SystemOneErrorType = 'authentication_error' | 'timeout' | 'tokens_exceeded' | 'unknown';

function systemOneErrorType(statusCode: number, code: ApiErrorCode): SystemOneErrorType {
  if (statusCode === 401) return 'authentication_error';
  if (code === 'engine_timeout') return 'timeout';
  if (code === 'context_too_long' || code === 'body_too_large') return 'tokens_exceeded';
  return 'unknown';
}

/** What an error carries besides its code and message. */
export interface ApiErrorExtra<Code extends ApiErrorCode> {
  /** The member of the request at fault (a dotted path), or null. */
  readonly param?: string | null;
  readonly detail?: unknown;
  readonly cause?: unknown;
  /** One of the code's registered `otherStatuses`; no other code may choose its status. */
  readonly status?: OtherStatus<Code>;
}

/**
 * A failure with a registered code, rendered as the Decision API's error envelope plus the System
 * One HTTP profile's `detail`, so clients that read either shape understand it. Built from its code
 * (`ApiError.of`): the status and type are the registry's (`API_ERROR_REGISTRY`), never a site's.
 */
export class ApiError extends Error {
  readonly [marker] = true;
  override readonly name = 'ApiError';
  readonly statusCode: number;
  readonly type: ApiErrorType;
  readonly code: ApiErrorCode;
  readonly param: string | null;
  readonly detail: unknown;

  private constructor(code: ApiErrorCode, message: string, extra: ApiErrorExtra<ApiErrorCode>) {
    super(message, { cause: extra.cause });
    const entry: ApiErrorEntry = API_ERROR_REGISTRY[code];
    if (extra.status !== undefined && !entry.otherStatuses?.includes(extra.status))
      throw new Error(
        `the error code ${code} is registered with status ${entry.status}, not ${extra.status}`,
      );
    this.statusCode = extra.status ?? entry.status;
    this.type = entry.type;
    this.code = code;
    this.param = extra.param ?? null;
    this.detail = extra.detail;
  }

  static of<Code extends ApiErrorCode>(
    code: Code,
    message: string,
    extra: ApiErrorExtra<Code> = {},
  ): ApiError {
    return new ApiError(code, message, extra);
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
