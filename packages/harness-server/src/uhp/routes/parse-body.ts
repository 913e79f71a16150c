import type { z } from 'zod';
import { invalidInput } from '../uhp-error.js';

/** Validates a JSON body against a wire schema; the first issue becomes `invalid_input` with its path. */
export function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const result = schema.safeParse(body ?? undefined);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = issue?.path.length
    ? issue.path
        .map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`))
        .join('')
        .replace(/^\./, '')
    : null;
  throw invalidInput(
    body === undefined || body === null
      ? 'The request needs a JSON body.'
      : `Invalid value${param ? ` at ${param}` : ''}: ${issue?.message ?? 'malformed body'}.`,
    param,
  );
}
