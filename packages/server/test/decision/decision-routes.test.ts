import { DECISION_LIMITS, decisionResponseSchema, EngineError, errorBodySchema } from '@arbiter/decision';
import { defineEngineKind, ModelCatalog } from '@arbiter/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, SUPPORT_TICKET, type TestApp } from '../support/decision-test-app.js';
import { systemOneResponseProblems } from './system-one/system-one-schemas.js';

let subject: TestApp;
beforeAll(async () => {
  subject = await buildTestApp();
});
afterAll(() => subject.close());

async function post(body: unknown, headers: Record<string, string> = {}, url = '/v1/decision') {
  const response = await subject.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...subject.authorization, ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.statusCode, headers: response.headers, body: response.json() as unknown };
}

async function expectError(
  body: unknown,
  status: number,
  code: string,
  message: string | RegExp,
  headers: Record<string, string> = {},
) {
  const response = await post(body, headers);
  expect(response.status).toBe(status);
  const envelope = errorBodySchema.parse(response.body);
  expect(envelope.error.code).toBe(code);
  if (typeof message === 'string') expect(envelope.error.message).toBe(message);
  else expect(envelope.error.message).toMatch(message);
  return envelope.error;
}

function withQuestion(question: unknown) {
  return { state: 's', questions: { q: question } };
}

describe('POST /v1/decision and /v1/systemone', () => {
  it('answers every question type, names the pin, and reports usage', async () => {
    for (const url of ['/v1/decision', '/v1/systemone']) {
      const response = await post({ ...SUPPORT_TICKET, model: 'jev-latest' }, {}, url);
      expect(response.status).toBe(200);
      expect(systemOneResponseProblems(response.body)).toEqual([]);
      const body = decisionResponseSchema.parse(response.body);
      expect(body.model).toBe('arbiter-1.0.0');
      expect(Object.keys(body.answers)).toEqual(['is_urgent', 'department', 'severity']);
      expect(body.answers.department).toMatchObject({ type: 'choice', choice: 'billing' });
      expect(body.answers.is_urgent).not.toHaveProperty('confidence');
      expect(body.usage.output_tokens).toBe(0);
      expect(body.usage.input_tokens).toBeGreaterThan(10);
    }
  });

  it('uses the default model when none is named', async () => {
    const response = await post(SUPPORT_TICKET);
    expect((response.body as { model: string }).model).toBe('arbiter-1.0.0');
  });

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    expect((await post(SUPPORT_TICKET, { 'x-request-id': 'trace-42' })).headers['x-request-id']).toBe(
      'trace-42',
    );
    const replaced = (await post(SUPPORT_TICKET, { 'x-request-id': 'bad id\twith spaces' })).headers[
      'x-request-id'
    ];
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
    const onError = await post('{', { 'x-request-id': 'trace-43' });
    expect(onError.headers['x-request-id']).toBe('trace-43');
  });

  it('rejects malformed JSON and empty bodies', async () => {
    await expectError('{"state": ', 400, 'invalid_json', /not valid JSON/);
    await expectError('', 400, 'invalid_json', 'the request body is empty; send a JSON object');
    await expectError('{"__proto__": {"x": 1}, "state": "s"}', 400, 'invalid_json', /__proto__/);
  });

  it('names the offending question and field', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 256 }, (_, i) => [`o${i}`, null]));
    const error = await expectError(
      { state: 's', questions: { department: { type: 'choice', instructions: 'x', criteria: tooMany } } },
      400,
      'too_many_options',
      'questions.department.criteria: a choice may have at most 255 options',
    );
    expect(error.param).toBe('questions.department.criteria');
    await expectError(
      withQuestion({ type: 'score', instructions: 'x', criteria: ['only'] }),
      400,
      'invalid_levels',
      'questions.q.criteria: a score needs at least 2 levels',
    );
    await expectError(
      withQuestion({ type: 'score', instructions: 'x', criteria: Array(11).fill(null) }),
      400,
      'invalid_levels',
      'questions.q.criteria: a score may have at most 10 levels',
    );
    await expectError(
      withQuestion({ type: 'ranking', instructions: 'x' }),
      400,
      'invalid_question',
      'questions.q.type: unknown question type "ranking"; expected noul, choice or score',
    );
    await expectError(
      withQuestion({ instructions: 'x' }),
      400,
      'invalid_question',
      'questions.q.type: missing question type; expected noul, choice or score',
    );
    await expectError(
      withQuestion({ type: 'choice', instructions: 'x', criteria: {} }),
      400,
      'invalid_question',
      'questions.q.criteria: a choice needs at least one option',
    );
    await expectError(
      { state: 's', questions: { 'a.b': { type: 'noul', instructions: 7 } } },
      400,
      'invalid_question',
      'questions["a.b"].instructions: expected a string, an object or an array',
    );
    await expectError(
      { state: 's', questions: {} },
      400,
      'empty_questions',
      'questions: questions must not be empty',
    );
    await expectError(
      { questions: SUPPORT_TICKET.questions },
      400,
      'invalid_request',
      'state: expected a string, an object or an array',
    );
    await expectError(
      { ...SUPPORT_TICKET, model: 7 },
      400,
      'invalid_request',
      'model: Invalid input: expected string, received number',
    );
    await expectError(
      [],
      400,
      'invalid_request',
      'request body: Invalid input: expected object, received array',
    );
    const manyQuestions = Object.fromEntries(
      Array.from({ length: DECISION_LIMITS.maxQuestions + 1 }, (_, i) => [
        `q${i}`,
        { type: 'noul', instructions: 'x' },
      ]),
    );
    await expectError(
      { state: 's', questions: manyQuestions },
      400,
      'invalid_request',
      'questions: at most 64 questions per request',
    );
  });

  it('refuses a context over the token budget', async () => {
    const state = 'x'.repeat(DECISION_LIMITS.maxContextTokens * 3);
    const error = await expectError(
      { state, questions: { q: { type: 'noul', instructions: 'abc' } } },
      400,
      'context_too_long',
      /about 32\d\d\d tokens \(UTF-8 bytes \/ 3\); the limit is 32768/,
    );
    expect(error.detail).toMatchObject({ limit_tokens: 32768 });
  });

  it('lists the models when the model is unknown', async () => {
    const error = await expectError(
      { ...SUPPORT_TICKET, model: 'gpt-9' },
      404,
      'model_not_found',
      'model `gpt-9` does not exist; available models: arbiter-1.0.0, arbiter-latest, jev-latest',
    );
    expect(error.detail).toEqual({ available: ['arbiter-1.0.0', 'arbiter-latest', 'jev-latest'] });
  });

  it('refuses other media types with 415', async () => {
    const response = await subject.app.inject({
      method: 'POST',
      url: '/v1/decision',
      headers: { 'content-type': 'text/plain', ...subject.authorization },
      payload: 'hello',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({
      error: {
        code: 'unsupported_media_type',
        message: 'unsupported Content-Type "text/plain"; send application/json',
      },
    });
  });

  it('answers unknown routes with the envelope', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/v2/nothing?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: { type: 'not_found_error', code: 'not_found', message: 'no route GET /v2/nothing', param: null },
      detail: { message: 'no route GET /v2/nothing', error_type: 'unknown' },
    });
  });
});

describe('body limit', () => {
  it('answers 413 with the limit', async () => {
    const small = await buildTestApp({ limits: { maxBodyBytes: 2048 } });
    try {
      const response = await small.app.inject({
        method: 'POST',
        url: '/v1/decision',
        headers: { 'content-type': 'application/json', ...small.authorization },
        payload: JSON.stringify({ ...SUPPORT_TICKET, state: 'y'.repeat(4096) }),
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({
        error: { code: 'body_too_large', message: 'the request body is larger than the limit of 2048 bytes' },
      });
    } finally {
      await small.close();
    }
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once a principal exceeds its requests per minute', async () => {
    const limited = await buildTestApp({ limits: { requestsPerMinute: 2 } });
    try {
      const send = (authorization: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/v1/decision',
          headers: { 'content-type': 'application/json', authorization },
          payload: JSON.stringify(SUPPORT_TICKET),
        });
      const own = `Bearer ${limited.key}`;
      expect((await send(own)).statusCode).toBe(200);
      expect((await send(own)).statusCode).toBe(200);
      const refused = await send(own);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({
        error: {
          type: 'rate_limit_error',
          code: 'rate_limited',
          message: /^more than 2 requests in a minute; retry after /,
        },
      });
      // Another principal has its own budget.
      const other = (await limited.keys.create('other')).key;
      expect((await send(`Bearer ${other}`)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('engine failures', () => {
  function failingKind(error: unknown) {
    return defineEngineKind({
      configSchema: z.object({ kind: z.literal('failing') }),
      create: () => ({
        specificationVersion: 'v1',
        engineId: 'failing',
        evaluate: async () => {
          throw error;
        },
      }),
    });
  }

  it.each([
    [
      new EngineError({ code: 'engine_error', message: 'upstream said 500 at http://10.0.0.1' }),
      502,
      'engine_error',
    ],
    [
      new EngineError({ code: 'engine_unavailable', message: 'connection refused' }),
      503,
      'engine_unavailable',
    ],
    [new EngineError({ code: 'engine_timeout', message: 'too slow' }), 504, 'engine_timeout'],
    [new Error('secret internals /etc/passwd'), 500, 'internal_error'],
  ])('maps %s to %i without leaking details', async (error, status, code) => {
    const catalog = new ModelCatalog({
      analysers: [],
      engineKinds: { failing: failingKind(error) },
      config: { models: [{ name: 'broken-1.0.0', release_date: '2026-01-01', engine: { kind: 'failing' } }] },
    });
    const local = await buildTestApp({ catalog });
    try {
      const response = await local.app.inject({
        method: 'POST',
        url: '/v1/decision',
        headers: { 'content-type': 'application/json', ...local.authorization },
        payload: JSON.stringify({ ...SUPPORT_TICKET, model: 'broken-latest' }),
      });
      expect(response.statusCode).toBe(status);
      const body = errorBodySchema.parse(response.json());
      expect(body.error.code).toBe(code);
      expect(response.body).not.toContain((error as Error).message);
    } finally {
      await local.close();
    }
  });

  it('refuses answers that do not match the questions (502)', async () => {
    const liar = defineEngineKind({
      configSchema: z.object({ kind: z.literal('liar') }),
      create: () => ({
        specificationVersion: 'v1',
        engineId: 'liar',
        evaluate: async () => ({ answers: {}, usage: { input_tokens: null, output_tokens: null } }),
      }),
    });
    const catalog = new ModelCatalog({
      analysers: [],
      engineKinds: { liar },
      config: { models: [{ name: 'liar-1.0.0', release_date: '2026-01-01', engine: { kind: 'liar' } }] },
    });
    const local = await buildTestApp({ catalog });
    try {
      const response = await local.app.inject({
        method: 'POST',
        url: '/v1/decision',
        headers: { 'content-type': 'application/json', ...local.authorization },
        payload: JSON.stringify({ ...SUPPORT_TICKET, model: 'liar-1.0.0' }),
      });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toMatchObject({ error: { code: 'engine_error' } });
    } finally {
      await local.close();
    }
  });
});

describe('GET /v1/models, /health, /openapi.json, /docs', () => {
  it('lists the catalog in the public shape', async () => {
    const response = await subject.app.inject({
      method: 'GET',
      url: '/v1/models',
      headers: subject.authorization,
    });
    expect(response.statusCode).toBe(200);
    const { models } = response.json() as { models: Array<Record<string, string>> };
    expect(models.map((model) => model.name)).toEqual(['arbiter-1.0.0', 'arbiter-latest', 'jev-latest']);
    expect(models[0]).toMatchObject({ release_date: '2026-11-22', kind: 'pin', engine: 'builtin' });
  });

  it('reports health without a credential', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/health' });
    expect(response.json()).toEqual({ status: 'ok', auth: 'api-key' });
  });

  it('serves an OpenAPI document generated from the zod schemas and a rendered reference', async () => {
    const spec = (await subject.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    expect(spec.openapi).toBe('3.1.0');
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/v1/decision', '/v1/systemone', '/v1/models', '/health']),
    );
    expect(JSON.stringify(spec.paths['/v1/decision']?.post?.requestBody)).toContain('noul');
    const docs = await subject.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
    expect(docs.body).toContain('Arbiter API reference');
    const script = await subject.app.inject({ method: 'GET', url: '/docs/js/scalar.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    const redirect = await subject.app.inject({ method: 'GET', url: '/docs' });
    expect(redirect.statusCode).toBeGreaterThanOrEqual(300);
    expect(redirect.headers.location).toBe('/docs/');
    const referenced = await subject.app.inject({ method: 'GET', url: '/docs/openapi.json' });
    expect(referenced.json()).toMatchObject({ info: { title: 'Arbiter API' } });
  });
});
