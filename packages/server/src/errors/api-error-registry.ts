import type { DecisionErrorCode } from '@arbiter/decision';

/** The `type` member of the error envelope: the family a code belongs to. */
export type ApiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'engine_error'
  | 'api_error';

/** What one Decision API error code means wherever the server answers with it. */
export interface ApiErrorEntry {
  /** The HTTP status of an answer with this code. */
  readonly status: number;
  readonly type: ApiErrorType;
  /** Whether sending the same request again may succeed without changing it. */
  readonly retryable: boolean;
  /**
   * Statuses other than `status` the code may answer with. Only `invalid_request` has them: Node's
   * HTTP layer refuses a request that is too slow (408) or whose headers are too long (431) before
   * any route runs, and the envelope keeps the code that says "this request is wrong".
   */
  readonly otherStatuses?: readonly number[];
}

const entry = <Status extends number, Type extends ApiErrorType>(
  status: Status,
  type: Type,
  retryable = false,
) => ({ status, type, retryable }) as const;

/**
 * Every error code of the Decision API (and the routes around it: keys, budgets, the team gate)
 * with its status, type and retryability, as `UHP_ERROR_REGISTRY` is for UHP. `ApiError.of` builds
 * an error from its code, so no site chooses a status or type by hand; docs/api.md's error table
 * states the same pairs, and a test holds the two together.
 */
export const API_ERROR_REGISTRY = {
  invalid_json: entry(400, 'invalid_request_error'),
  invalid_request: { ...entry(400, 'invalid_request_error'), otherStatuses: [408, 431] as const },
  invalid_question: entry(400, 'invalid_request_error'),
  too_many_options: entry(400, 'invalid_request_error'),
  invalid_levels: entry(400, 'invalid_request_error'),
  empty_questions: entry(400, 'invalid_request_error'),
  context_too_long: entry(400, 'invalid_request_error'),
  invalid_amount: entry(400, 'invalid_request_error'),
  missing_credential: entry(401, 'authentication_error'),
  invalid_credential: entry(401, 'authentication_error'),
  operator_required: entry(403, 'permission_error'),
  insufficient_scope: entry(403, 'permission_error'),
  model_not_found: entry(404, 'not_found_error'),
  not_found: entry(404, 'not_found_error'),
  last_operator_key: entry(409, 'invalid_request_error'),
  currency_mismatch: entry(409, 'invalid_request_error'),
  balance_limit: entry(409, 'invalid_request_error'),
  idempotency_key_reused: entry(409, 'invalid_request_error'),
  body_too_large: entry(413, 'invalid_request_error'),
  unsupported_media_type: entry(415, 'invalid_request_error'),
  rate_limited: entry(429, 'rate_limit_error', true),
  internal_error: entry(500, 'api_error', true),
  // As `EngineError.isRetryable` says: a failed engine fails the same way again; an unavailable or
  // slow one may answer next time.
  engine_error: entry(502, 'engine_error'),
  engine_unavailable: entry(503, 'engine_error', true),
  engine_timeout: entry(504, 'engine_error', true),
} as const satisfies Record<DecisionErrorCode, ApiErrorEntry>;

export type ApiErrorCode = keyof typeof API_ERROR_REGISTRY;

/** The statuses besides its own that `code` may answer with (`never` for nearly every code). */
export type OtherStatus<Code extends ApiErrorCode> = (typeof API_ERROR_REGISTRY)[Code] extends {
  readonly otherStatuses: readonly (infer Status)[];
}
  ? Status
  : never;
