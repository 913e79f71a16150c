import type { UhpErrorType } from '@arbiter/uhp/wire';

const STATUS_TYPES: Record<number, UhpErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'invalid_request_error',
  409: 'invalid_request_error',
  413: 'invalid_request_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
};

/**
 * A request the UHP API refuses, rendered as the specification's error envelope by the plugin's
 * one error handler. Messages are written for users: no paths, hosts, stack traces or credentials.
 */
export class UhpHttpError extends Error {
  readonly statusCode: number;
  readonly type: UhpErrorType;
  readonly code: string;
  readonly param: string | null;
  readonly detail: Record<string, unknown> | null;

  constructor(
    statusCode: number,
    code: string,
    message: string,
    extra: { param?: string | null; detail?: Record<string, unknown> | null; type?: UhpErrorType } = {},
  ) {
    super(message);
    this.name = 'UhpHttpError';
    this.statusCode = statusCode;
    this.code = code;
    this.type = extra.type ?? STATUS_TYPES[statusCode] ?? 'server_error';
    this.param = extra.param ?? null;
    this.detail = extra.detail ?? null;
  }

  toEnvelope() {
    return {
      error: {
        type: this.type,
        code: this.code,
        message: this.message,
        param: this.param,
        detail: this.detail,
      },
    };
  }
}

export const notFound = (code: string, what: string, param: string | null = null) =>
  new UhpHttpError(404, code, `No ${what} with that id exists in your scope.`, { param });

export const invalidInput = (message: string, param: string | null = null) =>
  new UhpHttpError(400, 'invalid_input', message, { param });
