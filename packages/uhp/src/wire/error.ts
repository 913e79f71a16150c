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
