import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  expectSchema,
  expectWellFormedStream,
  principalCalls,
  streamTask,
  until,
  withoutIds,
} from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

const key = TEST_KEYS.alice;
let server: UhpTestServer;
const { post } = principalCalls(() => server.baseUrl, key);
beforeAll(async () => {
  server = await startUhpTestServer();
});
afterAll(() => server.close());

describe('blocking tasks', () => {
  it('returns a terminal, schema-valid response naming model, session and usage', async () => {
    const result = await post({ input: 'Reply with exactly: ok' });
    expect(result.status).toBe(200);
    expectSchema(result.json, 'Response');
    expect(result.json).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'arbiter-offline',
      error: null,
    });
    expect(result.json.id).toMatch(/^resp_/);
    expect(result.json.metadata.session_id).toMatch(/^hsess_/);
    expect(result.json.metadata.harness_id).toMatch(/^chrn_/);
    const message = result.json.output.find((item: { type: string }) => item.type === 'message');
    expect(message.content[0]).toMatchObject({ type: 'output_text', text: 'ok', annotations: [] });
    expect(result.json.output[0].type).toBe('reasoning');
    expect(result.json.usage.total_tokens).toBe(
      result.json.usage.input_tokens + result.json.usage.output_tokens,
    );
    const readBack = await call(server.baseUrl, `/v1/responses/${result.json.id}`, { key });
    expect(readBack.json).toEqual(result.json);
    const input = await call(server.baseUrl, `/v1/responses/${result.json.id}/input_items`, { key });
    expect(input.json).toMatchObject({
      object: 'list',
      data: [{ role: 'user', content: [{ type: 'input_text' }] }],
    });
  });

  it('ignores unknown request fields and reports them in metadata', async () => {
    const result = await post({ input: 'Reply with exactly: ok', temperature: 0.2, frobnicate: { a: 1 } });
    expect(result.status).toBe(200);
    expect(result.json.metadata.ignored_fields).toEqual(['temperature', 'frobnicate']);
  });

  it('substitutes an unknown model with the harness default and says so', async () => {
    const result = await post({ input: 'Reply with exactly: ok', model: 'gpt-nonexistent' });
    expect(result.json.model).toBe('arbiter-offline');
    expect(result.json.metadata).toMatchObject({ requested_model: 'gpt-nonexistent', model_fallback: true });
    expect(result.json.metadata.model_fallback_reason).toEqual(expect.any(String));
  });

  it('reports a harness failure as a 200 failed response with an error', async () => {
    const result = await post({ input: '@say partial\n@fail the directive asked for it' });
    expect(result.status).toBe(200);
    expect(result.json.status).toBe('failed');
    expect(result.json.error).toMatchObject({ type: 'harness_error', code: 'harness_error' });
    expect(JSON.stringify(result.json.output)).toContain('partial');
  });

  it('ends in incomplete when max_step, max_output_tokens or timeout_seconds stops the work', async () => {
    const steps = await post({ input: '@list\n@list\n@list', max_step: 2 });
    expect(steps.json.status).toBe('incomplete');
    expect(steps.json.incomplete_details).toEqual({ reason: 'max_step' });
    expect(steps.json.output.filter((item: { type: string }) => item.type === 'function_call')).toHaveLength(
      2,
    );
    const tokens = await post({ input: 'Count from 1 to 100', max_output_tokens: 15 });
    expect(tokens.json.status).toBe('incomplete');
    expect(tokens.json.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(tokens.json.usage.output_tokens).toBe(15);
    const started = Date.now();
    const timed = await post({ input: '@say before\n@sleep 60000\n@say after', timeout_seconds: 1 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(timed.json.status).toBe('incomplete');
    expect(timed.json.incomplete_details).toEqual({ reason: 'timeout_seconds' });
    expect(JSON.stringify(timed.json.output)).toContain('before');
    expect(JSON.stringify(timed.json.output)).not.toContain('after');
  });

  it('runs a background task and lets the client poll it to completion', async () => {
    const started = await post({ input: '@sleep 100\n@say done', background: true });
    expect(started.json.status).toBe('in_progress');
    const finished = await until(async () => {
      const result = await call(server.baseUrl, `/v1/responses/${started.json.id}`, { key });
      return result.json.status === 'completed' ? result.json : undefined;
    });
    expect(JSON.stringify(finished.output)).toContain('done');
  });

  it('deleting a response hides it but never cancels the running task', async () => {
    const started = await post({ input: '@sleep 200\n@say survived', background: true });
    const deleted = await call(server.baseUrl, `/v1/responses/${started.json.id}`, { method: 'DELETE', key });
    expect(deleted.json).toMatchObject({ id: started.json.id, deleted: true });
    expect((await call(server.baseUrl, `/v1/responses/${started.json.id}`, { key })).status).toBe(404);
    const session = started.json.metadata.session_id;
    await until(async () => {
      const info = await call(server.baseUrl, `/v1/sessions/${session}`, { key });
      return info.json.status === 'idle' ? true : undefined;
    });
    const files = await call(server.baseUrl, `/v1/sessions/${session}/turns`, { key });
    expect(files.json.turns).toHaveLength(0);
  });
});

describe('streaming', () => {
  it('streams a gapless, schema-valid event log that ends in exactly one terminal event', async () => {
    const { events } = await streamTask(server.baseUrl, key, {
      input: '@think planning\n@say hello world\n@write a.txt <<<A>>>',
    });
    expectWellFormedStream(events);
    const types = events.map((event) => event.data.type);
    expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
    for (const type of [
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_part.done',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_text.annotation.added',
      'response.completed',
    ]) {
      expect(types).toContain(type);
    }
    expect(events.map((event) => Number(event.id))).toEqual(
      events.map((event) => event.data.sequence_number),
    );
  });

  it('assembles the same output streaming and blocking for the same input', async () => {
    const input = '@think plan\n@say one two three\n@list\n@say end';
    const blocking = await post({ input });
    const { events } = await streamTask(server.baseUrl, key, { input });
    const terminal = events.at(-1)!.data.response;
    expect(withoutIds(terminal.output)).toEqual(withoutIds(blocking.json.output));
    expect(terminal.usage).toEqual(blocking.json.usage);
    const stored = await call(server.baseUrl, `/v1/responses/${terminal.id}`, { key });
    expect(stored.json).toEqual(terminal);
  });

  it('streams a turn of more events than one read of the log (256) whole and in order, live and replayed', async () => {
    const words = Array.from({ length: 700 }, (_, index) => `w${index}`).join(' ');
    const { events } = await streamTask(server.baseUrl, key, { input: `@say ${words}` });
    expectWellFormedStream(events);
    expect(events.length).toBeGreaterThan(2 * 256);
    const terminal = events.at(-1)!.data.response;
    expect(JSON.stringify(terminal.output)).toContain('w699');
    // Replayed from the log after the turn, past one page, from a sequence number inside the first.
    const replay = await fetch(
      `${server.baseUrl}/v1/responses/${terminal.id}?stream=true&starting_after=100`,
      {
        headers: { authorization: `Bearer ${key}` },
      },
    );
    expect(replay.status).toBe(200);
    const ids = [...(await replay.text()).matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    expect(ids).toEqual(events.slice(101).map((event) => event.data.sequence_number));
  });

  it('is progressive: events arrive spread over the run, not in one flush', async () => {
    const paced = await startUhpTestServer({ offlineChunkDelayMs: 25 });
    try {
      const { events } = await streamTask(paced.baseUrl, key, { input: 'Count from 1 to 20' });
      expectWellFormedStream(events);
      const spread = events.at(-1)!.at - events[0]!.at;
      // 20 numbers plus the reasoning words at 25 ms each: at least ~0.5 s between first and last.
      expect(spread).toBeGreaterThan(400);
      const deltas = events.filter((event) => event.data.type === 'response.output_text.delta');
      const gaps = deltas.slice(1).map((event, index) => event.at - deltas[index]!.at);
      expect(gaps.filter((gap) => gap > 10).length).toBeGreaterThan(deltas.length / 2);
    } finally {
      await paced.close();
    }
  });

  it('keeps running after the client drops the stream, and resumes after Last-Event-ID', async () => {
    const { events } = await streamTask(
      server.baseUrl,
      key,
      { input: '@say a b c\n@sleep 150\n@say d e f' },
      { stopAfter: 5 },
    );
    const responseId = events[0]!.data.response.id;
    const completed = await until(async () => {
      const result = await call(server.baseUrl, `/v1/responses/${responseId}`, { key });
      return result.json.status === 'completed' ? result.json : undefined;
    });
    expect(JSON.stringify(completed.output)).toContain('d e f');
    const resumed = await fetch(`${server.baseUrl}/v1/responses/${responseId}?stream=true`, {
      headers: { authorization: `Bearer ${key}`, 'last-event-id': '4' },
    });
    const { readEvents } = await import('../support/uhp-test-client.js');
    const rest = await readEvents(resumed, performance.now());
    expect(rest.events[0]!.data.sequence_number).toBe(5);
    const all = [...events.slice(0, 5), ...rest.events];
    expectWellFormedStream(all);
    expect(all.at(-1)!.data.response).toEqual(completed);
  });

  it('honours Connection: close on a stream, and keeps other connections usable after one', async () => {
    const done = await post({ input: '@say replayed' });
    const route = `/v1/responses/${done.json.id}?stream=true`;
    // Asked to close, the answer says so and the server closes once the stream has ended. It used
    // to answer `keep-alive` and then refuse the next request on the connection (400), which broke
    // a proxy that pooled the connection on the strength of that header.
    const closing = await HttpConnection.open(server.baseUrl);
    const asked = await closing.exchange(route, { connection: 'close' });
    expect(asked.status).toBe(200);
    expect(asked.headers.connection).toBe('close');
    expect(asked.body).toContain('response.completed');
    await closing.ended;
    // Not asked to close, a finished stream leaves an HTTP/1.1 connection ready for the next request.
    const persistent = await HttpConnection.open(server.baseUrl);
    const first = await persistent.exchange(route);
    expect(first.headers.connection ?? 'keep-alive').toBe('keep-alive');
    expect(first.body).toContain('response.completed');
    const second = await persistent.exchange('/v1/uhp');
    expect(second.status).toBe(200);
    expect(JSON.parse(second.body).protocol).toBe('uhp');
    persistent.socket.destroy();
  });

  it('sends keep-alive comments while a task is silent', async () => {
    const quick = await startUhpTestServer({ keepAliveMs: 50 });
    try {
      const { comments, events } = await streamTask(quick.baseUrl, key, { input: '@sleep 300\n@say done' });
      expectWellFormedStream(events);
      expect(comments.filter((comment) => comment.trim() === 'keep-alive').length).toBeGreaterThanOrEqual(2);
    } finally {
      await quick.close();
    }
  });
});

describe('idempotency', () => {
  it('executes concurrent retries with one key once and returns the first result to all', async () => {
    const headers = { 'Idempotency-Key': `retry-${Date.now()}` };
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        post({ input: '@sleep 100\n@write once.txt <<<x>>>\n@say done' }, headers),
      ),
    );
    const ids = new Set(results.map((result) => result.json.id));
    expect(ids.size).toBe(1);
    for (const result of results) expect(result.json.status).toBe('completed');
    const session = results[0]!.json.metadata.session_id;
    const turns = await call(server.baseUrl, `/v1/sessions/${session}/turns`, { key });
    expect(turns.json.turns).toHaveLength(1);
    const files = await call(server.baseUrl, `/v1/sessions/${session}/files`, { key });
    expect(files.json.files).toHaveLength(1);
    const later = await post({ input: 'something else entirely' }, headers);
    expect(later.json.id).toBe(results[0]!.json.id);
  });

  it('replays the first execution as a stream when the retry asks for one', async () => {
    const headers = { 'Idempotency-Key': `stream-${Date.now()}` };
    const first = await post({ input: '@say streamed once' }, headers);
    const { events } = await streamTask(server.baseUrl, key, { input: '@say streamed once' }, { headers });
    expectWellFormedStream(events);
    expect(events.at(-1)!.data.response).toEqual(first.json);
  });

  it('scopes keys to the principal', async () => {
    const headers = { 'Idempotency-Key': `shared-${Date.now()}` };
    const alice = await post({ input: 'Reply with exactly: a' }, headers);
    const bob = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: TEST_KEYS.bob,
      body: { input: 'Reply with exactly: b' },
      headers,
    });
    expect(bob.json.id).not.toBe(alice.json.id);
  });
});

/**
 * One HTTP/1.1 connection spoken by hand, so a test sees and controls what `fetch` hides: the
 * `Connection` header and whether the server keeps or closes the socket. Answers are read whole:
 * `content-length` bodies and chunked ones (the event streams).
 */
class HttpConnection {
  private buffered = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  readonly ended: Promise<void>;

  private constructor(
    readonly socket: net.Socket,
    private readonly basePath: string,
    private readonly host: string,
  ) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.waiting?.();
    });
    this.ended = new Promise((resolve) => socket.once('end', () => resolve()));
    socket.on('end', () => this.waiting?.());
  }

  static open(baseUrl: string): Promise<HttpConnection> {
    const url = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () =>
        resolve(new HttpConnection(socket, url.pathname, url.host)),
      );
      socket.once('error', reject);
    });
  }

  async exchange(
    route: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const lines = [
      `GET ${this.basePath}${route} HTTP/1.1`,
      `Host: ${this.host}`,
      `Authorization: Bearer ${key}`,
    ];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    this.socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    for (;;) {
      const answer = this.takeAnswer();
      if (answer) return answer;
      if (this.socket.readableEnded)
        throw new Error(`connection ended mid-answer: ${this.buffered.toString()}`);
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
  }

  /** The first whole answer in the buffer (removed from it), or null while it is incomplete. */
  private takeAnswer(): { status: number; headers: Record<string, string>; body: string } | null {
    const headEnd = this.buffered.indexOf('\r\n\r\n');
    if (headEnd < 0) return null;
    const [statusLine, ...headerLines] = this.buffered.subarray(0, headEnd).toString().split('\r\n');
    const headers = Object.fromEntries(
      headerLines.map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
    );
    let rest = this.buffered.subarray(headEnd + 4);
    const body: Buffer[] = [];
    if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const sizeEnd = rest.indexOf('\r\n');
        if (sizeEnd < 0) return null;
        const size = Number.parseInt(rest.subarray(0, sizeEnd).toString(), 16);
        if (rest.length < sizeEnd + 2 + size + 2) return null;
        body.push(rest.subarray(sizeEnd + 2, sizeEnd + 2 + size));
        rest = rest.subarray(sizeEnd + 2 + size + 2);
        if (size === 0) break;
      }
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (rest.length < length) return null;
      body.push(rest.subarray(0, length));
      rest = rest.subarray(length);
    }
    this.buffered = rest;
    return { status: Number(statusLine!.split(' ')[1]), headers, body: Buffer.concat(body).toString() };
  }
}
