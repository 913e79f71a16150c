import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../test/support/manual-clock.js';
import { DecisionClient } from '../client/decision-client.js';
import { choice, noul, score } from '../question/question-builders.js';
import { createHttpTransport, DEFAULT_BASE_URL, MAX_RESPONSE_BYTES } from './http-transport.js';

interface ReceivedRequest {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: unknown;
}

interface LoopbackServer {
  baseURL: string;
  received: ReceivedRequest[];
}

const servers: Server[] = [];

/** A real HTTP server on 127.0.0.1 whose handler sees the parsed JSON body of each request. */
async function startServer(
  handle: (request: ReceivedRequest, response: ServerResponse, index: number) => void,
): Promise<LoopbackServer> {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const entry = {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: JSON.parse(text),
      };
      received.push(entry);
      handle(entry, response, received.length - 1);
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

const questions = {
  urgent: noul('Is this urgent?'),
  team: choice('Which team?', ['billing', 'technical']),
  severity: score('How severe?', ['low', 'medium', 'high']),
};

const validBody = {
  model: 'arbiter-1.0.0',
  answers: {
    urgent: { type: 'noul', noul: 0.9 },
    team: {
      type: 'choice',
      choice: 'billing',
      confidence: 0.7,
      probabilities: { billing: 0.85, technical: 0.15 },
    },
    severity: {
      type: 'score',
      score: 1.2,
      confidence: 0.5,
      probabilities: { '0': 0.1, '1': 0.6, '2': 0.3 },
      legend: { '0': 'low', '1': 'medium', '2': 'high' },
    },
  },
  usage: { input_tokens: 42, output_tokens: null },
};

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function errorEnvelope(code: string, message: string, extra: { retryable?: boolean } = {}) {
  return { error: { type: 'invalid_request_error', code, message, param: null, ...extra } };
}

function clientFor(
  baseURL: string,
  options: { budgetMs?: number; apiKey?: string | null; clock?: ManualClock } = {},
) {
  return new DecisionClient({
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    transport: createHttpTransport({
      baseURL,
      apiKey: options.apiKey === undefined ? 'test-key-1' : options.apiKey,
    }),
    budgetMs: options.budgetMs ?? 5_000,
  });
}

describe('HTTP transport: the wire', () => {
  it('posts the redacted request with the bearer key and returns the typed answers', async () => {
    const server = await startServer((_request, response) => sendJson(response, 200, validBody));
    const secret = `ghp_${'x1Y2'.repeat(9)}`;
    const result = await clientFor(server.baseURL).decide({
      state: { command: `git push https://${secret}@github.com/o/r` },
      questions,
      model: 'arbiter-latest',
    });

    expect(result).toMatchObject({ skipped: false, model: 'arbiter-1.0.0', attempts: 1 });
    if (result.skipped) return;
    expect(result.answers.team.choice).toBe('billing');
    expect(result.answers.severity.score).toBe(1.2);
    expect(result.usage).toEqual({ input_tokens: 42, output_tokens: null });
    const [sent] = server.received;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/v1/decision');
    expect(sent?.headers.authorization).toBe('Bearer test-key-1');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.body).toEqual({
      model: 'arbiter-latest',
      state: { command: 'git push https://[REDACTED:github-token]@github.com/o/r' },
      questions,
    });
  });

  it('keeps a path prefix of the base URL and sends no key when apiKey is null', async () => {
    const server = await startServer((_request, response) => sendJson(response, 200, validBody));
    const result = await clientFor(`${server.baseURL}/arbiter/`, { apiKey: null }).decide({
      state: 's',
      questions,
    });
    expect(result.skipped).toBe(false);
    expect(server.received[0]?.url).toBe('/arbiter/v1/decision');
    expect(server.received[0]?.headers.authorization).toBeUndefined();
  });

  it('reads the base URL and key from ARBITER_BASE_URL and ARBITER_API_KEY', async () => {
    const server = await startServer((_request, response) => sendJson(response, 200, validBody));
    const saved = { url: process.env.ARBITER_BASE_URL, key: process.env.ARBITER_API_KEY };
    process.env.ARBITER_BASE_URL = server.baseURL;
    process.env.ARBITER_API_KEY = 'from-environment';
    try {
      const result = await new DecisionClient().decide({ state: 's', questions });
      expect(result.skipped).toBe(false);
      expect(server.received[0]?.headers.authorization).toBe('Bearer from-environment');
    } finally {
      restoreEnvironment('ARBITER_BASE_URL', saved.url);
      restoreEnvironment('ARBITER_API_KEY', saved.key);
    }
  });

  it('without a configured key, asks without a credential: a server without auth answers', async () => {
    const server = await startServer((request, response) =>
      request.headers.authorization === undefined
        ? sendJson(response, 200, validBody)
        : sendJson(response, 400, errorEnvelope('invalid_request', 'unexpected credential')),
    );
    const saved = process.env.ARBITER_API_KEY;
    delete process.env.ARBITER_API_KEY;
    try {
      const client = new DecisionClient({ transport: createHttpTransport({ baseURL: server.baseURL }) });
      const result = await client.decide({ state: 's', questions });
      expect(result.skipped).toBe(false);
      expect(server.received).toHaveLength(1);
    } finally {
      restoreEnvironment('ARBITER_API_KEY', saved);
    }
  });

  it('skips with missing_key, naming the variable and no library option, when the server wants a key', async () => {
    const server = await startServer((_request, response) =>
      sendJson(response, 401, errorEnvelope('missing_credential', 'send Authorization: Bearer <key>')),
    );
    const saved = process.env.ARBITER_API_KEY;
    delete process.env.ARBITER_API_KEY;
    try {
      const client = new DecisionClient({ transport: createHttpTransport({ baseURL: server.baseURL }) });
      const result = await client.decide({ state: 's', questions });
      expect(result).toMatchObject({ skipped: true, reason: 'missing_key', attempts: 1 });
      if (result.skipped) {
        expect(result.message).toBe(`http: no API key: ${server.baseURL} requires one; set ARBITER_API_KEY`);
        expect(result.message).not.toMatch(/apiKey/);
      }
    } finally {
      restoreEnvironment('ARBITER_API_KEY', saved);
    }
  });

  it('blames ARBITER_BASE_URL for an invalid URL only when the URL came from it', async () => {
    const saved = process.env.ARBITER_BASE_URL;
    try {
      const fromOption = new DecisionClient({
        transport: createHttpTransport({ baseURL: 'not a url', apiKey: 'k' }),
      });
      const optionResult = await fromOption.decide({ state: 's', questions });
      expect(optionResult.skipped && optionResult.message).toBe(
        'http: the base URL "not a url" is not a valid URL',
      );
      process.env.ARBITER_BASE_URL = 'also not a url';
      const fromEnvironment = new DecisionClient({ transport: createHttpTransport({ apiKey: 'k' }) });
      const environmentResult = await fromEnvironment.decide({ state: 's', questions });
      expect(environmentResult.skipped && environmentResult.message).toBe(
        'http: the base URL "also not a url" is not a valid URL (from ARBITER_BASE_URL)',
      );
    } finally {
      restoreEnvironment('ARBITER_BASE_URL', saved);
    }
  });

  it('skips with client_error on a 4xx, naming the server code, without retrying', async () => {
    const server = await startServer((_request, response) =>
      sendJson(response, 400, errorEnvelope('too_many_options', 'question "team": at most 255 options')),
    );
    const result = await clientFor(server.baseURL).decide({ state: 's', questions });
    expect(result).toMatchObject({
      skipped: true,
      reason: 'client_error',
      status: 400,
      attempts: 1,
      retryable: false,
    });
    if (result.skipped)
      expect(result.message).toBe('http: HTTP 400: too_many_options: question "team": at most 255 options');
    expect(server.received).toHaveLength(1);
  });

  it('skips with client_error on 401 and points at the key, which it never echoes', async () => {
    const server = await startServer((_request, response) =>
      sendJson(response, 401, errorEnvelope('invalid_credential', 'the API key is not valid')),
    );
    const result = await clientFor(server.baseURL).decide({ state: 's', questions });
    expect(result).toMatchObject({ skipped: true, reason: 'client_error', status: 401 });
    if (!result.skipped) return;
    expect(result.message).toContain('check ARBITER_API_KEY');
    expect(result.message).not.toContain('test-key-1');
  });

  it('does not follow redirects, which would carry the key elsewhere', async () => {
    const target = await startServer((_request, response) => sendJson(response, 200, validBody));
    const server = await startServer((_request, response) => {
      response.writeHead(307, { location: `${target.baseURL}/v1/decision` });
      response.end();
    });
    const result = await clientFor(server.baseURL).decide({ state: 's', questions });
    expect(result).toMatchObject({ skipped: true, reason: 'client_error', status: 307 });
    expect(target.received).toHaveLength(0);
  });

  it('skips with invalid_response on a 200 that is not JSON or does not match the schema or the questions', async () => {
    const bodies = [
      'not json',
      JSON.stringify({ model: 'm', answers: {}, usage: { input_tokens: 1 } }),
      JSON.stringify({
        ...validBody,
        answers: { ...validBody.answers, team: { ...validBody.answers.team, choice: 'sales' } },
      }),
      JSON.stringify({ ...validBody, answers: { urgent: validBody.answers.urgent } }),
    ];
    const server = await startServer((_request, response, index) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(bodies[index]);
    });
    const client = clientFor(server.baseURL);
    const messages: string[] = [];
    for (const _body of bodies) {
      const result = await client.decide({ state: 's', questions });
      expect(result).toMatchObject({ skipped: true, reason: 'invalid_response', attempts: 1 });
      if (result.skipped) messages.push(result.message);
    }
    expect(messages[0]).toContain('not JSON');
    expect(messages[1]).toContain('usage.output_tokens');
    expect(messages[2]).toContain('"sales" is not one of its options');
    expect(messages[3]).toContain('no answer for question "team"');
  });

  it('rejects a bad question before sending, naming it', async () => {
    const server = await startServer((_request, response) => sendJson(response, 200, validBody));
    const result = await clientFor(server.baseURL).decide({
      state: 's',
      questions: { severity: score('How severe?', ['only one level']) },
    });
    expect(result).toMatchObject({ skipped: true, reason: 'client_error' });
    if (result.skipped) expect(result.message).toContain('questions.severity.criteria');
    expect(server.received).toHaveLength(0);
  });

  it('skips with client_error for a state over the body limit, sending nothing', async () => {
    const server = await startServer((_request, response) => sendJson(response, 200, validBody));
    const result = await clientFor(server.baseURL).decide({ state: 'x'.repeat(1_100_000), questions });
    expect(result).toMatchObject({ skipped: true, reason: 'client_error' });
    if (result.skipped) expect(result.message).toContain('1048576-byte limit');
    expect(server.received).toHaveLength(0);
  });

  it('refuses a response body over the size cap instead of buffering it', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = 'x'.repeat(64 * 1024);
      const writeMore = () => {
        while (!response.destroyed && response.write(chunk)) {}
        if (!response.destroyed) response.once('drain', writeMore);
      };
      response.on('close', () => response.removeAllListeners('drain'));
      writeMore();
    });
    const result = await clientFor(server.baseURL).decide({ state: 's', questions });
    expect(result).toMatchObject({ skipped: true, reason: 'invalid_response', status: 200, attempts: 1 });
    if (result.skipped) expect(result.message).toContain(`over ${MAX_RESPONSE_BYTES} bytes`);
  });

  it('uses the fetch it is given and defaults to 127.0.0.1:7411 without ARBITER_BASE_URL', async () => {
    const saved = process.env.ARBITER_BASE_URL;
    delete process.env.ARBITER_BASE_URL;
    const urls: string[] = [];
    try {
      const transport = createHttpTransport({
        apiKey: 'k',
        fetch: async (input) => {
          urls.push(String(input));
          return new Response(JSON.stringify(validBody), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          });
        },
      });
      const result = await new DecisionClient({ transport }).decide({ state: 's', questions });
      expect(result.skipped).toBe(false);
      expect(urls).toEqual([`${DEFAULT_BASE_URL}/v1/decision`]);
    } finally {
      restoreEnvironment('ARBITER_BASE_URL', saved);
    }
  });

  it('skips with client_error for a base URL that is not http(s)', async () => {
    const result = await clientFor('ftp://example.test').decide({ state: 's', questions });
    expect(result).toMatchObject({
      skipped: true,
      reason: 'client_error',
      message: 'http: the base URL must be http or https, got ftp:',
    });
  });

  it('skips with network when nothing listens', async () => {
    const server = await startServer(() => {});
    const { baseURL } = server;
    for (const open of servers.splice(0)) open.close();
    const result = await new DecisionClient({
      transport: createHttpTransport({ baseURL, apiKey: 'k' }),
      retry: { maxRetries: 1, baseDelayMs: 10 },
    }).decide({ state: 's', questions });
    expect(result).toMatchObject({ skipped: true, reason: 'network', attempts: 2 });
    if (result.skipped) expect(result.message).toContain('ECONNREFUSED');
  });
});

describe('HTTP transport: one budget per call, retries included', () => {
  it('ends a call to a server that never answers as a timeout at the budget', async () => {
    const server = await startServer(() => {});
    const clock = new ManualClock();
    const pending = clientFor(server.baseURL, { budgetMs: 300, clock }).decide({ state: 's', questions });
    await vi.waitFor(() => expect(server.received).toHaveLength(1));
    await clock.advance(299);
    expect(clock.fired).toEqual([]);
    await clock.advance(1);
    const result = await pending;
    expect(result).toMatchObject({ skipped: true, reason: 'timeout', attempts: 1, latencyMs: 300 });
  });

  it('ends a call whose server sends headers and then stalls the body as a timeout', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"model":');
    });
    const clock = new ManualClock();
    const pending = clientFor(server.baseURL, { budgetMs: 300, clock }).decide({ state: 's', questions });
    await vi.waitFor(() => expect(server.received).toHaveLength(1));
    await clock.advance(300);
    expect(await pending).toMatchObject({ skipped: true, reason: 'timeout', latencyMs: 300 });
  });

  it('retries 5xx with backoff and skips as server_error when they persist, within the budget', async () => {
    const server = await startServer((_request, response) =>
      sendJson(response, 503, errorEnvelope('engine_unavailable', 'the engine is restarting')),
    );
    const clock = new ManualClock();
    const client = new DecisionClient({
      transport: createHttpTransport({ baseURL: server.baseURL, apiKey: 'k' }),
      budgetMs: 2_000,
      retry: { maxRetries: 3, baseDelayMs: 20, maxDelayMs: 50 },
      random: () => 0.5,
      clock,
    });
    const result = await clock.runUntilSettled(client.decide({ state: 's', questions }), { leave: 2_000 });
    expect(result).toMatchObject({
      skipped: true,
      reason: 'server_error',
      status: 503,
      attempts: 4,
      retryable: true,
    });
    if (result.skipped) expect(result.message).toContain('engine_unavailable');
    expect(server.received).toHaveLength(4);
    // Full jitter at one half of windows of 20, 40 and then the 50 ms cap.
    expect(clock.fired).toEqual([10, 20, 25]);
    expect(result.latencyMs).toBe(55);
  });

  it("retries an answer the server's retryable flag calls retryable, although its status would not be", async () => {
    const server = await startServer((_request, response, index) =>
      index === 0
        ? sendJson(response, 409, errorEnvelope('locked', 'try again shortly', { retryable: true }), {
            'retry-after': '0.2',
          })
        : sendJson(response, 200, validBody),
    );
    const clock = new ManualClock();
    const pending = clientFor(server.baseURL, { clock }).decide({ state: 's', questions });
    const result = await clock.runUntilSettled(pending, { leave: 5_000 });
    expect(result).toMatchObject({ skipped: false, attempts: 2 });
    // The flag also lets Retry-After count, which a 409 would otherwise never get to.
    expect(clock.fired).toEqual([200]);
    expect(server.received).toHaveLength(2);
  });

  it("does not retry an answer the server's retryable flag calls final, although its status would be retried", async () => {
    const server = await startServer((_request, response) =>
      sendJson(
        response,
        502,
        errorEnvelope('engine_error', 'the engine rejected the state', { retryable: false }),
      ),
    );
    const result = await clientFor(server.baseURL).decide({ state: 's', questions });
    expect(result).toMatchObject({
      skipped: true,
      reason: 'server_error',
      status: 502,
      attempts: 1,
      retryable: false,
    });
    expect(server.received).toHaveLength(1);
  });

  it('retries a 502 whose envelope has no retryable flag, as its status says', async () => {
    const server = await startServer((_request, response, index) =>
      index === 0
        ? sendJson(response, 502, errorEnvelope('bad_gateway', 'upstream failed'))
        : sendJson(response, 200, validBody),
    );
    const result = await clientFor(server.baseURL).decide({ state: 's', questions });
    expect(result).toMatchObject({ skipped: false, attempts: 2 });
  });

  it('succeeds when a 503 is followed by a 200', async () => {
    const server = await startServer((_request, response, index) =>
      index === 0
        ? sendJson(response, 503, errorEnvelope('engine_unavailable', 'warming up'))
        : sendJson(response, 200, validBody),
    );
    const result = await clientFor(server.baseURL).decide({ state: 's', questions });
    expect(result).toMatchObject({ skipped: false, attempts: 2 });
    expect(server.received).toHaveLength(2);
  });

  it('waits as long as Retry-After says when that fits in the budget, then succeeds', async () => {
    const server = await startServer((_request, response, index) =>
      index === 0
        ? sendJson(response, 429, errorEnvelope('rate_limited', 'slow down'), { 'retry-after': '1.5' })
        : sendJson(response, 200, validBody),
    );
    const clock = new ManualClock();
    const pending = clientFor(server.baseURL, { budgetMs: 3_000, clock }).decide({ state: 's', questions });
    const result = await clock.runUntilSettled(pending, { leave: 3_000 });
    expect(result).toMatchObject({ skipped: false, attempts: 2, latencyMs: 1_500 });
    expect(clock.fired).toEqual([1_500]);
  });

  it('honours Retry-After given as an HTTP date', async () => {
    const server = await startServer((_request, response, index) =>
      index === 0
        ? sendJson(response, 429, errorEnvelope('rate_limited', 'slow down'), {
            'retry-after': new Date(Date.now() + 1_500).toUTCString(),
          })
        : sendJson(response, 200, validBody),
    );
    const clock = new ManualClock();
    const pending = clientFor(server.baseURL, { budgetMs: 3_000, clock }).decide({ state: 's', questions });
    const result = await clock.runUntilSettled(pending, { leave: 3_000 });
    expect(result).toMatchObject({ skipped: false, attempts: 2 });
    // HTTP dates have whole seconds and are read against the wall clock: the wait is up to 1.5 s.
    expect(clock.fired).toHaveLength(1);
    expect(clock.fired[0]).toBeGreaterThan(0);
    expect(clock.fired[0]).toBeLessThanOrEqual(1_500);
    expect(result.latencyMs).toBe(clock.fired[0]);
  });

  it('skips as rate_limited at once when Retry-After does not fit in the budget', async () => {
    const server = await startServer((_request, response) =>
      sendJson(response, 429, errorEnvelope('rate_limited', 'slow down'), { 'retry-after': '30' }),
    );
    const clock = new ManualClock();
    const result = await clientFor(server.baseURL, { clock }).decide({ state: 's', questions });
    expect(result).toMatchObject({ skipped: true, reason: 'rate_limited', status: 429, attempts: 1 });
    if (result.skipped) expect(result.message).toContain('Retry-After 30 s does not fit');
    // No wait was started, and the budget's timer is gone with the call.
    expect(clock.fired).toEqual([]);
    expect(clock.pending).toEqual([]);
    expect(server.received).toHaveLength(1);
  });

  it('skips a 503 at once when its Retry-After does not fit in the budget', async () => {
    const server = await startServer((_request, response) =>
      sendJson(response, 503, errorEnvelope('engine_unavailable', 'maintenance'), { 'retry-after': '120' }),
    );
    const clock = new ManualClock();
    const result = await clientFor(server.baseURL, { clock }).decide({ state: 's', questions });
    expect(result).toMatchObject({ skipped: true, reason: 'server_error', status: 503, attempts: 1 });
    expect(clock.fired).toEqual([]);
    expect(clock.pending).toEqual([]);
  });

  it('retries a connection destroyed mid-response and skips as network when it keeps happening', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      response.write('{"model":"arbiter-1.0.0","answers":{');
      setImmediate(() => response.socket?.destroy());
    });
    const result = await new DecisionClient({
      transport: createHttpTransport({ baseURL: server.baseURL, apiKey: 'k' }),
      retry: { maxRetries: 2, baseDelayMs: 10 },
    }).decide({ state: 's', questions });
    expect(result).toMatchObject({ skipped: true, reason: 'network', attempts: 3 });
    expect(server.received).toHaveLength(3);
  });

  it('honours the caller abort signal', async () => {
    const server = await startServer(() => {});
    const controller = new AbortController();
    const clock = new ManualClock();
    const pending = clientFor(server.baseURL, { clock }).decide({
      state: 's',
      questions,
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(server.received).toHaveLength(1));
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ skipped: true, reason: 'aborted', latencyMs: 0 });
    expect(clock.pending).toEqual([]);
  });

  it('skips at once with aborted when the signal is already aborted', async () => {
    const server = await startServer((_request, response) => sendJson(response, 200, validBody));
    const result = await clientFor(server.baseURL).decide({
      state: 's',
      questions,
      signal: AbortSignal.abort(),
    });
    expect(result).toMatchObject({ skipped: true, reason: 'aborted' });
  });
});

function restoreEnvironment(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
