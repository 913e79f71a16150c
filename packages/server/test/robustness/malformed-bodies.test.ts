import { MAX_JSON_DEPTH } from '@arbiter/json-body';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './start-test-server.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.cleanup());

async function post(route: string, body: string, contentType = 'application/json') {
  const response = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.key}`, 'content-type': contentType },
    body,
  });
  return { status: response.status, json: (await response.json()) as { error: Record<string, unknown> } };
}

const nestedArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('bodies that once were 500s are 400s in each API’s envelope', () => {
  it('JSON nested 10,000 deep, anywhere in the body, on every JSON route', async () => {
    const bodies = [
      nestedArray(10_000),
      nestedObject(10_000),
      `{"state":${nestedArray(10_000)},"questions":{}}`,
      `{"input":"x","metadata":${nestedObject(10_000)}}`,
    ];
    for (const body of bodies) {
      const decision = await post('/v1/decision', body);
      expect(decision.status).toBe(400);
      expect(decision.json.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'invalid_json',
        detail: { max_depth: MAX_JSON_DEPTH },
      });
      for (const route of ['/api/harness/v1/responses', '/api/harness/v1/harnesses']) {
        const uhp = await post(route, body);
        expect(uhp.status).toBe(400);
        expect(uhp.json.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_input' });
        expect(String(uhp.json.error.message)).toContain(`${MAX_JSON_DEPTH} levels`);
      }
    }
    // Brackets inside strings are text, not nesting; the limit itself is accepted.
    const inString = await post('/api/harness/v1/responses', JSON.stringify({ input: '['.repeat(10_000) }));
    expect(inString.status).not.toBe(400);
    const atLimit = await post(
      '/api/harness/v1/harnesses',
      `{"name":"deep","base":"agent","metadata":{"k":${nestedArray(MAX_JSON_DEPTH - 2)}}}`,
    );
    expect(atLimit.status).not.toBe(500);
  });

  it('a malformed data URL is a 400 naming the part', async () => {
    for (const url of [
      'data:text/plain,%E0%A4%A',
      'data:text/plain;base64,@@not-base64@@',
      'data:;base64,A',
    ]) {
      const result = await post(
        '/api/harness/v1/responses',
        JSON.stringify({
          input: [{ role: 'user', content: [{ type: 'input_file', filename: 'a.txt', file_data: url }] }],
        }),
      );
      expect(result.status, url).toBe(400);
      expect(result.json.error).toMatchObject({
        code: 'invalid_input',
        param: 'input[0].content[0].file_data',
      });
    }
  });

  it('a multipart body with no boundary, or cut short, is a 400', async () => {
    const noBoundary = await post(
      '/api/harness/v1/files',
      '--x\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc\r\n--x--',
      'multipart/form-data',
    );
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.json.error).toMatchObject({ code: 'invalid_input', param: 'file' });
    const truncated = await post(
      '/api/harness/v1/files',
      '--zz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
      'multipart/form-data; boundary=zz',
    );
    expect(truncated.status).toBe(400);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});
