import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UhpFailure } from '../uhp-error.js';
import { documentsOnly, uhpRequestValidator } from './uhp-request-validator.js';

const validate = (schema: z.ZodType, httpPart: string, data: unknown) => {
  const definition = { schema, httpPart, method: 'POST', url: '/v1/x' } as FastifyRouteSchemaDef<z.ZodType>;
  return (uhpRequestValidator(definition) as (data: unknown) => { value?: unknown; error?: unknown })(data);
};

const refusal = (result: { error?: unknown }) => {
  expect(UhpFailure.isInstance(result.error)).toBe(true);
  const failure = result.error as UhpFailure;
  return { code: failure.code, status: failure.statusCode, param: failure.param, message: failure.message };
};

describe('the UHP validator compiler', () => {
  it('refuses a body in the specification’s invalid_input, naming the offending member by its path', () => {
    const schema = z.object({
      skills: z.array(z.object({ files: z.array(z.object({ path: z.string() })) })),
    });
    const result = validate(schema, 'body', { skills: [{ files: [{ path: 'a' }, { path: 7 }] }] });
    expect(refusal(result)).toMatchObject({
      code: 'invalid_input',
      status: 400,
      param: 'skills[0].files[1].path',
    });
  });

  it('says a body is missing rather than naming a member of it', () => {
    const result = validate(z.object({ input: z.string() }), 'body', undefined);
    expect(refusal(result)).toEqual({
      code: 'invalid_input',
      status: 400,
      param: null,
      message: 'The request needs a JSON body.',
    });
  });

  it('names a header as the specification writes it, and a query parameter by its name', () => {
    const headers = z.looseObject({ 'idempotency-key': z.string().max(3, 'too long').optional() });
    expect(refusal(validate(headers, 'headers', { 'idempotency-key': 'abcd' }))).toMatchObject({
      param: 'Idempotency-Key',
      message: 'Invalid value at Idempotency-Key: too long.',
    });
    const query = z.object({ limit: z.coerce.number().int().min(1).optional() });
    expect(refusal(validate(query, 'querystring', { limit: '0' }))).toMatchObject({ param: 'limit' });
  });

  it('hands on what the schema parsed (coerced query values), and lets documented-only parts through', () => {
    const query = z.object({ limit: z.coerce.number().int().optional() });
    expect(validate(query, 'querystring', { limit: '5' })).toEqual({ value: { limit: 5 } });
    const multipart = documentsOnly(z.object({ file: z.string() }));
    expect(validate(multipart, 'body', undefined)).toEqual({ value: undefined });
  });
});
