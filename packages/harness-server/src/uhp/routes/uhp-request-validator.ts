import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import { invalidInput, type UhpFailure } from '../uhp-error.js';

const documentationOnly = new WeakSet<z.ZodType>();

/**
 * Marks a schema that documents a request part Fastify does not parse, so it is not validated here:
 * a multipart body, which the handler streams with its own limits and checks itself.
 */
export function documentsOnly<Schema extends z.ZodType>(schema: Schema): Schema {
  documentationOnly.add(schema);
  return schema;
}

/** Header names as the specification writes them, for `param`. */
const canonicalHeader = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_match, dash, letter) => dash + letter.toUpperCase());

function paramOf(httpPart: string | undefined, path: readonly PropertyKey[]): string | null {
  if (path.length === 0) return null;
  if (httpPart === 'headers') return canonicalHeader(String(path[0]));
  return path
    .map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`))
    .join('')
    .replace(/^\./, '');
}

function refusal(
  httpPart: string | undefined,
  issues: readonly z.core.$ZodIssue[],
  data: unknown,
): UhpFailure {
  if (httpPart === 'body' && (data === undefined || data === null))
    return invalidInput('The request needs a JSON body.');
  const issue = issues[0];
  const param = paramOf(httpPart, issue?.path ?? []);
  return invalidInput(
    `Invalid value${param ? ` at ${param}` : ''}: ${issue?.message ?? 'malformed'}.`,
    param,
  );
}

/**
 * The UHP plugin's validator compiler: route schemas (body, params, querystring, headers) validate
 * with zod, and the first issue becomes the specification's `invalid_input` naming the offending
 * `param`, in UHP's envelope (the Decision API has a compiler of its own for its envelope).
 * Schemas are compiled with `z.compile` on their first request, as the Decision API's are.
 */
export const uhpRequestValidator: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  if (documentationOnly.has(schema)) return (data) => ({ value: data });
  let compiled: z.ZodType | undefined;
  return (data) => {
    compiled ??= z.compile(schema);
    const result = compiled.safeParse(data ?? undefined);
    return result.success ? { value: result.data } : { error: refusal(httpPart, result.error.issues, data) };
  };
};
