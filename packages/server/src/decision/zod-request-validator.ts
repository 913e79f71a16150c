import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { requestValidationError } from './request-validation-error.js';

/**
 * Validates request parts with their zod schemas and fails with the Decision API's own error
 * (code, field path, all issues) instead of the type provider's generic validation error.
 */
export const zodRequestValidator: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    return result.success
      ? { value: result.data }
      : { error: requestValidationError(result.error.issues, data) };
  };
