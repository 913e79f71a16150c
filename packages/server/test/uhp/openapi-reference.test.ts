import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../robustness/start-test-server.js';

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is arbitrary JSON.
type Json = any;

let server: Awaited<ReturnType<typeof startTestServer>>;
let document: Json;
beforeAll(async () => {
  server = await startTestServer();
  const response = await fetch(`${server.url}/openapi.json`);
  expect(response.status).toBe(200);
  document = await response.json();
});
afterAll(() => server.cleanup());

const METHODS = ['get', 'post', 'put', 'delete'];

/** Every operation of the UHP API in the document, as `METHOD path`. */
function harnessOperations(): [string, Json][] {
  return Object.entries(document.paths as Record<string, Json>)
    .filter(([path]) => path.startsWith('/api/harness/'))
    .flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map(
        (method) => [`${method.toUpperCase()} ${path}`, item[method]] as [string, Json],
      ),
    );
}

/** The schema of an answer or body: one per media type, each with something in it. */
function expectDocumentedContent(where: string, content: Json): void {
  expect(content, where).toBeTypeOf('object');
  const mediaTypes = Object.keys(content);
  expect(mediaTypes.length, where).toBeGreaterThan(0);
  for (const mediaType of mediaTypes) {
    const schema = content[mediaType].schema;
    expect(schema, `${where} ${mediaType}`).toBeTypeOf('object');
    expect(Object.keys(schema).length, `${where} ${mediaType}`).toBeGreaterThan(0);
  }
}

describe('/openapi.json documents the whole UHP API from its route schemas', () => {
  it('lists every UHP route with a summary, tags, an explicit security requirement and documented answers', () => {
    const operations = harnessOperations();
    // Discovery, harnesses, models, responses, sessions, shares, files, shared views, audit, billing.
    expect(operations.length).toBeGreaterThanOrEqual(30);
    for (const [name, operation] of operations) {
      expect(operation.summary, name).toMatch(/\S/);
      expect(
        operation.tags?.some((tag: string) => tag.startsWith('uhp')),
        name,
      ).toBe(true);
      expect(Array.isArray(operation.security), `${name} security`).toBe(true);
      const answers = Object.entries(operation.responses as Record<string, Json>);
      const success = answers.filter(([status]) => status.startsWith('2'));
      expect(success.length, name).toBeGreaterThan(0);
      for (const [status, answer] of answers) {
        expect(answer.description, `${name} ${status}`).not.toBe('Default Response');
        expectDocumentedContent(`${name} ${status}`, answer.content);
      }
    }
  });

  it('asks a bearer key on every route but discovery and shared views, which it marks public', () => {
    for (const [name, operation] of harnessOperations()) {
      const open = name === 'GET /api/harness/v1/uhp' || name === 'GET /api/harness/v1/shared/{token}';
      expect(operation.security, name).toEqual(open ? [] : [{ bearerAuth: [] }]);
      if (!open) expect(Object.keys(operation.responses), name).toContain('401');
    }
    expect(document.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
  });

  it('documents request bodies, parameters and queries, multipart and event streams by media type', () => {
    const operation = (name: string) => harnessOperations().find(([key]) => key === name)?.[1];
    for (const name of [
      'POST /api/harness/v1/harnesses',
      'PUT /api/harness/v1/harnesses/{harness_id}',
      'POST /api/harness/v1/responses',
      'POST /api/harness/v1/files',
    ]) {
      expectDocumentedContent(`${name} body`, operation(name)?.requestBody?.content);
    }
    expect(Object.keys(operation('POST /api/harness/v1/files').requestBody.content)).toEqual([
      'multipart/form-data',
    ]);
    expect(Object.keys(operation('POST /api/harness/v1/responses').responses['200'].content).sort()).toEqual([
      'application/json',
      'text/event-stream',
    ]);
    expect(
      Object.keys(operation('GET /api/harness/v1/harnesses/{harness_id}/events').responses['200'].content),
    ).toEqual(['text/event-stream']);
    const parameters = (name: string) =>
      (operation(name)?.parameters ?? []).map((parameter: Json) => `${parameter.in}:${parameter.name}`);
    expect(parameters('GET /api/harness/v1/sessions')).toEqual(
      expect.arrayContaining(['query:limit', 'query:cursor', 'query:harness']),
    );
    expect(parameters('GET /api/harness/v1/responses/{response_id}')).toEqual(
      expect.arrayContaining([
        'path:response_id',
        'query:stream',
        'query:starting_after',
        'header:last-event-id',
      ]),
    );
    expect(parameters('POST /api/harness/v1/responses')).toContain('header:idempotency-key');
  });

  it('gives UHP errors UHP’s envelope, not the Decision API’s', () => {
    for (const [name, operation] of harnessOperations()) {
      const schema = operation.responses['400'].content['application/json'].schema;
      expect(schema.properties.error.properties.type.enum, name).toContain('harness_error');
      expect(schema.properties.error.required, name).toEqual(
        expect.arrayContaining(['type', 'code', 'message']),
      );
    }
    const decision = document.paths['/v1/decision'].post.responses['400'].content['application/json'].schema;
    expect(decision.properties.error.properties.type.enum ?? []).not.toContain('harness_error');
  });
});
