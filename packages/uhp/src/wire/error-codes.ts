import type { UhpErrorType } from './error.js';

/** What one error code means wherever it appears: an error answer, a failed response, an `error` event. */
export interface UhpErrorCodeEntry {
  /** `specification`: named by UHP 2026-08-11; `arbiter`: this implementation's, prefixed `arbiter_` as the specification requires. */
  readonly origin: 'specification' | 'arbiter';
  readonly type: UhpErrorType;
  /**
   * The HTTP status of an error answer with this code, or null for a code that only appears in a
   * failed response or a stream's `error` event. `invalid_input` is 400 for a request that does not
   * match its schema and 422 for one that does but is refused by a rule of the object it describes.
   */
  readonly status: number | null;
  /** Whether sending the same request again may succeed without changing it. */
  readonly retryable: boolean;
  readonly summary: string;
}

const spec = <Status extends number | null>(
  type: UhpErrorType,
  status: Status,
  summary: string,
  retryable = false,
): UhpErrorCodeEntry & { readonly status: Status } => ({
  origin: 'specification',
  type,
  status,
  retryable,
  summary,
});

const arbiter = <Status extends number | null>(
  type: UhpErrorType,
  status: Status,
  summary: string,
  retryable = false,
): UhpErrorCodeEntry & { readonly status: Status } => ({
  origin: 'arbiter',
  type,
  status,
  retryable,
  summary,
});

/**
 * Every error code a UHP server may send to this client, and Arbiter's server may emit: the
 * specification's codes and Arbiter's own. The server's errors are typed by these keys, so a code
 * not registered here does not compile; the client reads retryability and meaning from here.
 */
export const UHP_ERROR_REGISTRY = {
  unsupported_protocol_version: spec(
    'invalid_request_error',
    400,
    'The request asked for a UHP-Version the server does not speak; `detail.supported` lists those it does.',
  ),
  invalid_input: spec('invalid_request_error', 400, 'A member of the request is wrong; `param` names it.'),
  harness_not_found: spec('invalid_request_error', 404, 'No harness with that id in the caller’s scope.'),
  response_not_found: spec('invalid_request_error', 404, 'No response with that id in the caller’s scope.'),
  session_not_found: spec('invalid_request_error', 404, 'No session with that id in the caller’s scope.'),
  file_not_found: spec('invalid_request_error', 404, 'No file with that id in the caller’s scope.'),
  session_expired: spec('invalid_request_error', 404, 'The continued session is past its retention.'),
  harness_mismatch: spec(
    'invalid_request_error',
    409,
    'A continuation named another harness than its session’s.',
  ),
  session_busy: spec('invalid_request_error', 409, 'A task is already running in the session.'),
  file_too_large: spec('invalid_request_error', 413, 'A file is over the size limit; `detail.max_bytes`.'),
  model_unavailable: spec(
    'invalid_request_error',
    422,
    'Neither the requested model nor the default can serve.',
  ),
  unsupported_base: spec('invalid_request_error', 422, 'The server cannot run that harness base.'),
  missing_credential: spec('authentication_error', 401, 'The request carries no bearer credential.'),
  invalid_credential: spec('authentication_error', 401, 'The credential is malformed, unknown or revoked.'),
  insufficient_scope: spec('permission_error', 403, 'The credential may not do this.'),
  rate_limited: spec('rate_limit_error', 429, 'Too many requests; wait for `Retry-After`.', true),
  quota_exhausted: spec(
    'rate_limit_error',
    429,
    'The caller’s quota or prepaid balance does not cover the task.',
  ),
  harness_error: spec('harness_error', null, 'The harness failed while running the task.'),
  harness_unavailable: spec('server_error', 503, 'No runtime for the harness is available now.', true),
  provider_error: spec('harness_error', null, 'The model provider failed.'),
  timeout: spec('harness_error', null, 'The task ran out of time.'),
  cancelled: spec('harness_error', null, 'The task was cancelled.'),
  preview_unavailable: spec('server_error', 501, 'The server has no converter for PDF previews.'),
  preview_failed: spec('server_error', 502, 'The file could not be converted to PDF.'),

  arbiter_route_not_found: arbiter('invalid_request_error', 404, 'No UHP route has this method and path.'),
  arbiter_request_too_large: arbiter(
    'invalid_request_error',
    413,
    'The request body is over the size limit.',
  ),
  arbiter_unsupported_media_type: arbiter('invalid_request_error', 415, 'The body is not application/json.'),
  arbiter_internal_error: arbiter(
    'server_error',
    500,
    'A fault in the server; details are in its log.',
    true,
  ),
  arbiter_skill_not_found: arbiter('invalid_request_error', 404, 'The harness has no skill of that name.'),
  arbiter_share_not_found: arbiter(
    'invalid_request_error',
    404,
    'The session is not shared, or the token is unknown.',
  ),
  arbiter_audit_log_too_large: arbiter(
    'invalid_request_error',
    422,
    'The gate audit log is too large to read over HTTP; use `arbiter gate log`.',
  ),
  arbiter_input_name_conflict: arbiter(
    'invalid_request_error',
    409,
    'An input file is named like a folder of the session’s workspace.',
  ),
  arbiter_billing_currency_mismatch: arbiter(
    'server_error',
    409,
    'The prepaid balance and the model prices are in different currencies (an operator’s fix).',
  ),
  arbiter_interrupted: arbiter(
    'server_error',
    null,
    'The server stopped while the task ran; its output is kept.',
  ),
  arbiter_task_failed: arbiter(
    'server_error',
    null,
    'The server failed while preparing or finishing the task.',
  ),
  arbiter_mcp_not_supported: arbiter('harness_error', null, 'The model in use has no MCP client (event).'),
  arbiter_mcp_unavailable: arbiter('harness_error', null, 'An MCP server could not be reached (event).'),
  arbiter_sandbox_unavailable: arbiter('server_error', null, 'The process sandbox cannot start (event).'),
  arbiter_artifacts_unavailable: arbiter(
    'server_error',
    null,
    'Some workspace files could not be artifacts (event).',
  ),
  arbiter_artifact_limit: arbiter(
    'harness_error',
    null,
    'The turn left more files or bytes than one turn or session may keep; those stored are cited.',
  ),
  arbiter_quota_exceeded: arbiter(
    'harness_error',
    null,
    "The principal went past its disk or file quota during the turn, so the turn's programs were stopped.",
  ),
  arbiter_acp_session_not_loaded: arbiter(
    'harness_error',
    null,
    'The ACP agent could not resume its session (event).',
  ),
  arbiter_agent_refused: arbiter('harness_error', null, 'The ACP agent refused the turn (event).'),
  arbiter_agent_turn_limit: arbiter('harness_error', null, 'The ACP agent hit its own turn limit (event).'),
  arbiter_max_output_tokens_unenforced: arbiter(
    'harness_error',
    null,
    'The ACP agent cannot be held to max_output_tokens (event).',
  ),
} as const satisfies Record<string, UhpErrorCodeEntry>;

/** A registered error code: the only codes Arbiter's server emits. */
export type UhpErrorCode = keyof typeof UHP_ERROR_REGISTRY;

/** An error code that has an HTTP status, i.e. may be the code of an error answer. */
export type UhpHttpErrorCode = {
  [Code in UhpErrorCode]: (typeof UHP_ERROR_REGISTRY)[Code]['status'] extends number ? Code : never;
}[UhpErrorCode];

/** The registry entry of `code`, or undefined for a code this client does not know (another vendor's). */
export function uhpErrorCodeEntry(code: string): UhpErrorCodeEntry | undefined {
  return Object.hasOwn(UHP_ERROR_REGISTRY, code) ? UHP_ERROR_REGISTRY[code as UhpErrorCode] : undefined;
}

export function isUhpErrorCode(code: string): code is UhpErrorCode {
  return Object.hasOwn(UHP_ERROR_REGISTRY, code);
}
