import { z } from 'zod';

export const UHP_ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'rate_limit_error',
  'harness_error',
  'server_error',
] as const;
export const uhpErrorTypeSchema = z.enum(UHP_ERROR_TYPES);
export type UhpErrorType = z.infer<typeof uhpErrorTypeSchema>;

/** Codes the specification names; servers may add vendor-prefixed ones (Arbiter uses `arbiter_`). */
export const UHP_ERROR_CODES = [
  'unsupported_protocol_version',
  'invalid_input',
  'harness_not_found',
  'response_not_found',
  'session_not_found',
  'file_not_found',
  'session_expired',
  'harness_mismatch',
  'session_busy',
  'file_too_large',
  'model_unavailable',
  'unsupported_base',
  'missing_credential',
  'invalid_credential',
  'insufficient_scope',
  'rate_limited',
  'quota_exhausted',
  'harness_error',
  'harness_unavailable',
  'provider_error',
  'timeout',
  'cancelled',
  'preview_unavailable',
  'preview_failed',
] as const;
export type UhpErrorCode = (typeof UHP_ERROR_CODES)[number];

/** The error object: in the envelope of every non-2xx body and in a failed response. */
export const uhpErrorSchema = z.looseObject({
  type: uhpErrorTypeSchema,
  code: z.string(),
  message: z.string(),
  param: z.string().nullable().optional(),
  detail: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type UhpError = z.infer<typeof uhpErrorSchema>;

export const uhpErrorEnvelopeSchema = z.looseObject({ error: uhpErrorSchema });
export type UhpErrorEnvelope = z.infer<typeof uhpErrorEnvelopeSchema>;
