import { z } from 'zod';

/**
 * The one error envelope of every non-2xx response of the Decision API. `detail` beside `error` is
 * the System One HTTP profile's shape (`error_type`: `authentication_error`, `timeout`,
 * `tokens_exceeded` or `unknown`), for clients that read that one.
 */
export const errorBodySchema = z.object({
  error: z.object({
    type: z.string(),
    code: z.string(),
    message: z.string(),
    param: z.string().nullable().optional(),
    detail: z.unknown().optional(),
  }),
  detail: z.object({ message: z.string(), error_type: z.string() }).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Machine-readable codes of the Decision API. Documented in docs/api.md. */
export const DECISION_ERROR_CODES = [
  'invalid_json',
  'invalid_request',
  'invalid_question',
  'too_many_options',
  'invalid_levels',
  'empty_questions',
  'context_too_long',
  'body_too_large',
  'unsupported_media_type',
  'model_not_found',
  'missing_credential',
  'invalid_credential',
  'rate_limited',
  'operator_required',
  'insufficient_scope',
  'last_operator_key',
  'invalid_amount',
  'currency_mismatch',
  'balance_limit',
  'idempotency_key_reused',
  'not_found',
  'engine_error',
  'engine_unavailable',
  'engine_timeout',
  'internal_error',
] as const;
export type DecisionErrorCode = (typeof DECISION_ERROR_CODES)[number];
