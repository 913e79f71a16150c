import net from 'node:net';
import { MAX_JSON_DEPTH } from '@arbiter/json-body';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './start-test-server.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.cleanup());

async function post(route: string, body: string | Uint8Array, contentType = 'application/json') {
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

describe('every JSON route parses bodies one way: UTF-8, no lone surrogate, no repeated member name', () => {
  const decisionRoutes = ['/v1/decision', '/v1/systemone'];
  const uhpRoutes = ['/api/harness/v1/responses', '/api/harness/v1/harnesses'];
  const decision = '{"state":"s","questions":{"q":{"type":"noul","instructions":"i"}}';
  const bodies: [string, string | Uint8Array, RegExp][] = [
    [
      'a repeated member name',
      `${decision.slice(0, -1)},"q":{"type":"noul","instructions":"j"}}}`,
      /same member name twice/,
    ],
    [
      'a repeated top-level name',
      `{"input":"a","input":"b","state":"s","questions":{}}`,
      /same member name twice/,
    ],
    ['a lone surrogate', '{"input":"\\ud800","state":"\\ud800","questions":{}}', /lone surrogate/],
    [
      'bytes that are not UTF-8',
      Buffer.from([...Buffer.from('{"input":"'), 0xc3, 0x28, ...Buffer.from('"}')]),
      /not valid UTF-8/,
    ],
  ];

  it('refuses each with a 400 in each API’s envelope, naming the rule', async () => {
    for (const [what, body, message] of bodies) {
      for (const route of decisionRoutes) {
        const answer = await post(route, body);
        expect(answer.status, `${what} on ${route}`).toBe(400);
        expect(answer.json.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
        expect(String(answer.json.error.message)).toMatch(message);
      }
      for (const route of uhpRoutes) {
        const answer = await post(route, body);
        expect(answer.status, `${what} on ${route}`).toBe(400);
        expect(answer.json.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_input' });
        expect(String(answer.json.error.message)).toMatch(message);
      }
    }
  });

  it('refuses a body announced in another charset with a 415, and takes one announced as UTF-8', async () => {
    const utf16 = Buffer.from('{"input":"@say hi"}', 'utf16le');
    for (const route of decisionRoutes) {
      const answer = await post(route, utf16, 'application/json; charset=utf-16');
      expect(answer.status).toBe(415);
      expect(answer.json.error).toMatchObject({ code: 'unsupported_media_type' });
    }
    for (const route of uhpRoutes) {
      const answer = await post(route, utf16, 'application/json; charset=utf-16');
      expect(answer.status).toBe(415);
      expect(answer.json.error).toMatchObject({ code: 'arbiter_unsupported_media_type' });
    }
    const utf8 = await post(
      '/api/harness/v1/responses',
      '{"input":"@say hi"}',
      'application/json; charset=UTF-8',
    );
    expect(utf8.status).toBe(200);
  });
});

describe('empty names in a decision request', () => {
  it('an empty question id or option name is a 400 that says so, naming where', async () => {
    const noul = { type: 'noul', instructions: 'i' };
    const cases: [unknown, string, string][] = [
      [{ state: 's', questions: { '': noul } }, 'questions[""]', 'question ids must not be empty'],
      [
        {
          state: 's',
          questions: { q: { type: 'choice', instructions: 'i', criteria: { '': null, b: null } } },
        },
        'questions.q.criteria[""]',
        'option names must not be empty',
      ],
    ];
    for (const [body, param, message] of cases) {
      const answer = await post('/v1/decision', JSON.stringify(body));
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({
        code: 'invalid_question',
        param,
        message: `${param}: ${message}`,
      });
    }
  });
});

describe("the HTTP layer's own refusals", () => {
  it('a bad percent-encoding in a path is a 400 in each API’s envelope, quoting nothing', async () => {
    const headers = { authorization: `Bearer ${server.key}` };
    const decision = await fetch(`${server.url}/v1/models/sk-live-0123456789%zz`, { headers });
    expect(decision.status).toBe(400);
    const decisionBody = await decision.text();
    expect(JSON.parse(decisionBody).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_request',
    });
    expect(decisionBody).not.toContain('sk-live');
    const uhp = await fetch(`${server.url}/api/harness/v1/sessions/hsess_%zz`, { headers });
    expect(uhp.status).toBe(400);
    expect(((await uhp.json()) as { error: unknown }).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_input',
      param: null,
    });
  });

  it('a URL or headers over the limit are a 431 in the envelope, and the connection is closed', async () => {
    const { port } = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(`GET /v1/models?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      });
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString();
      });
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: unknown };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request' });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});
