import { UHP_ERROR_REGISTRY, type UhpErrorEnvelope, type UhpHttpErrorCode } from '@arbiter/uhp/wire';

const MARKER = Symbol.for('arbiter.server.UhpFailure');

/**
 * A request the UHP API refuses, as the service that refuses it knows it: a registered code, a
 * message written for users (no paths, hosts, stack traces or credentials), the offending `param`.
 * Services know nothing of HTTP: the plugin's one error handler gives each failure its status and
 * type from the registry (`UHP_ERROR_REGISTRY` in `@arbiter/uhp/wire`).
 */
export class UhpFailure extends Error {
  readonly [MARKER] = true;
  readonly code: UhpHttpErrorCode;
  readonly param: string | null;
  readonly detail: Record<string, unknown> | null;
  /**
   * `invalid_input` only: the request matched its schema but a rule of the object it describes
   * refuses it (a skill path with `..`, an MCP URL that is not http): 422 instead of 400.
   */
  readonly unprocessable: boolean;
  /**
   * The HTTP status the registry gives the code. A field, not a getter: Fastify writes `statusCode`
   * on errors that fail validation.
   */
  readonly statusCode: number;

  constructor(
    code: UhpHttpErrorCode,
    message: string,
    extra: { param?: string | null; detail?: Record<string, unknown> | null; unprocessable?: boolean } = {},
  ) {
    super(message);
    this.name = 'UhpFailure';
    this.code = code;
    this.param = extra.param ?? null;
    this.detail = extra.detail ?? null;
    this.unprocessable = extra.unprocessable ?? false;
    this.statusCode = this.unprocessable && code === 'invalid_input' ? 422 : UHP_ERROR_REGISTRY[code].status;
  }

  /** The specification's error envelope, with the type the registry gives the code. */
  toEnvelope(): UhpErrorEnvelope {
    return {
      error: {
        type: UHP_ERROR_REGISTRY[this.code].type,
        code: this.code,
        message: this.message,
        param: this.param,
        detail: this.detail,
      },
    };
  }

  static isInstance(value: unknown): value is UhpFailure {
    return typeof value === 'object' && value !== null && MARKER in value;
  }
}

export const notFound = (code: UhpHttpErrorCode, what: string, param: string | null = null) =>
  new UhpFailure(code, `No ${what} with that id exists in your scope.`, { param });

export const invalidInput = (message: string, param: string | null = null) =>
  new UhpFailure('invalid_input', message, { param });

/** `invalid_input` for a well-formed request that a rule of its object refuses (422). */
export const unprocessableInput = (message: string, param: string | null = null) =>
  new UhpFailure('invalid_input', message, { param, unprocessable: true });
