import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UhpApiError, UhpCapabilityError, UhpClient, type UhpClientEvent } from '../src/index.js';
import { MisbehavingServer } from './support/misbehaving-server.js';

let server: MisbehavingServer;
let baseURL: string;
let sleeps: number[];

beforeEach(async () => {
  server = new MisbehavingServer();
  baseURL = await server.start();
  sleeps = [];
});
afterEach(() => server.stop());

function client(): UhpClient {
  return new UhpClient({
    baseURL,
    apiKey: 'sk-test-secret',
    // Recording instead of sleeping keeps the suite fast and lets the test read the chosen delays.
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
  });
}

async function run(signal?: AbortSignal): Promise<UhpClientEvent[]> {
  const events: UhpClientEvent[] = [];
  const stream = await client().responses.stream(
    { input: 'write a.txt', metadata: { harness_id: 'chrn_a' } },
    signal ? { signal } : {},
  );
  for await (const event of stream) events.push(event);
  return events;
}

/** The text a renderer would show: deltas appended, a snapshot replacing what came before. */
function shownText(events: UhpClientEvent[]): string {
  let text = '';
  for (const event of events) {
    if (event.type === 'text-delta') text += event.delta;
    if (event.type === 'text-snapshot') text = event.text;
  }
  return text;
}

const types = (events: UhpClientEvent[]) => events.map((event) => event.type);

describe('UhpClient against a well-behaved stream', () => {
  it('normalises every event and sends version, bearer and idempotency headers', async () => {
    const events = await run();
    expect(types(events)).toEqual([
      'status',
      'tool-call',
      'tool-result',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-delta',
      'file-produced',
      'status',
      'usage',
      'done',
    ]);
    expect(shownText(events)).toBe('Hello, world!');
    expect(events).toContainEqual({
      type: 'file-produced',
      file: {
        containerId: 'cntr_1',
        fileId: 'file_1',
        filename: 'a.txt',
        downloadUrl: '/v1/containers/cntr_1/files/file_1/content',
      },
    });
    expect(events).toContainEqual({
      type: 'usage',
      usage: { input_tokens: 12, output_tokens: 5, total_tokens: 17 },
    });
    const [post] = server.requestsTo('POST', '/uhp/v1/responses');
    expect(post?.headers['uhp-version']).toBe('2026-08-11');
    expect(post?.headers.authorization).toBe('Bearer sk-test-secret');
    expect(post?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(post?.body ?? '{}')).toMatchObject({
      stream: true,
      metadata: { harness_id: 'chrn_a' },
    });
    // Discovery is public: the key is not sent where it is not needed.
    expect(server.requestsTo('GET', '/uhp/v1/uhp')[0]?.headers.authorization).toBeUndefined();
  });

  it('reads a stream the server buffered to the end exactly like a progressive one', async () => {
    server.misbehaviour = 'buffer-everything';
    const events = await run();
    expect(shownText(events)).toBe('Hello, world!');
    expect(types(events).filter((type) => type === 'sequence-gap' || type === 'reconnect')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'done', response: { status: 'completed' } });
  });
});

describe('UhpClient against a misbehaving server', () => {
  it('re-reads the stored response after a dropped connection and shows only what it missed', async () => {
    server.misbehaviour = 'drop-mid-stream';
    const events = await run();
    expect(events).toContainEqual({ type: 'reconnect', mode: 'reread', attempt: 1 });
    expect(shownText(events)).toBe('Hello, world!');
    expect(types(events).filter((type) => type === 'tool-call')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'done', response: { status: 'completed' } });
    expect(server.requestsTo('POST', '/uhp/v1/responses')).toHaveLength(1);
    // One read saw the task still running, the next saw it finished.
    expect(server.requestsTo('GET', '/uhp/v1/responses/resp_fake1')).toHaveLength(2);
  });

  it('resumes with Last-Event-ID when the server numbers its events', async () => {
    server.misbehaviour = 'drop-resumable';
    const events = await run();
    expect(events).toContainEqual({ type: 'reconnect', mode: 'resume', attempt: 1 });
    const [resume] = server.requestsTo('GET', '/uhp/v1/responses/resp_fake1?stream=true');
    expect(resume?.headers['last-event-id']).toBe('8');
    expect(shownText(events)).toBe('Hello, world!');
    expect(types(events).filter((type) => type === 'text-delta')).toHaveLength(5);
  });

  it('falls back to re-reading when a resume is answered with the stored response instead of a stream', async () => {
    server.misbehaviour = 'drop-resumable';
    server.refuseResume = true;
    const events = await run();
    expect(events.filter((event) => event.type === 'reconnect')).toEqual([
      { type: 'reconnect', mode: 'resume', attempt: 1 },
      { type: 'reconnect', mode: 'reread', attempt: 2 },
    ]);
    expect(shownText(events)).toBe('Hello, world!');
    expect(events.at(-1)).toMatchObject({ type: 'done', response: { status: 'completed' } });
  });

  it('repeats the POST with the same Idempotency-Key when the stream dies before the task is named', async () => {
    server.misbehaviour = 'drop-before-created';
    const events = await run();
    expect(events).toContainEqual({ type: 'reconnect', mode: 'repeat', attempt: 1 });
    expect(shownText(events)).toBe('Hello, world!');
    const posts = server.requestsTo('POST', '/uhp/v1/responses');
    expect(posts).toHaveLength(2);
    expect(posts[1]?.headers['idempotency-key']).toBe(posts[0]?.headers['idempotency-key']);
  });

  it('gives up rather than risk a second execution when the server does not promise idempotency', async () => {
    server.misbehaviour = 'drop-before-created';
    server.capabilities.idempotency = false;
    await expect(run()).rejects.toThrow('The connection closed before the server named the task.');
    expect(server.requestsTo('POST', '/uhp/v1/responses')).toHaveLength(1);
  });

  it('detects a skipped sequence number and corrects the text from the stored response', async () => {
    server.misbehaviour = 'skip-sequence';
    server.inProgressReads = 0;
    const events = await run();
    expect(events).toContainEqual({ type: 'sequence-gap', expected: 8, received: 9 });
    expect(events).toContainEqual({ type: 'text-snapshot', itemId: 'msg_1', text: 'Hello, world!' });
    expect(shownText(events)).toBe('Hello, world!');
    expect(server.requestsTo('GET', '/uhp/v1/responses/resp_fake1')).toHaveLength(1);
  });

  it('retries a 503 with backoff and the same Idempotency-Key', async () => {
    server.misbehaviour = 'fail-503-once';
    const events = await run();
    expect(events.at(-1)).toMatchObject({ type: 'done' });
    const posts = server.requestsTo('POST', '/uhp/v1/responses');
    expect(posts).toHaveLength(2);
    expect(posts[1]?.headers['idempotency-key']).toBe(posts[0]?.headers['idempotency-key']);
    expect(sleeps).toEqual([125]); // full jitter: 0.5 × min(8000, 250 × 2⁰)
  });

  it('waits what Retry-After says on 429 rate_limited, then retries with the same key', async () => {
    server.misbehaviour = 'rate-limit-once';
    await run();
    const posts = server.requestsTo('POST', '/uhp/v1/responses');
    expect(posts.map((post) => post.headers['idempotency-key'])).toEqual([
      posts[0]?.headers['idempotency-key'],
      posts[0]?.headers['idempotency-key'],
    ]);
    expect(sleeps).toEqual([2000]);
  });

  it('never retries a POST when the server does not promise idempotency', async () => {
    server.misbehaviour = 'fail-503-once';
    server.capabilities.idempotency = false;
    await expect(run()).rejects.toMatchObject({
      name: 'UhpApiError',
      status: 503,
      code: 'harness_unavailable',
    });
    expect(server.requestsTo('POST', '/uhp/v1/responses')).toHaveLength(1);
  });

  it('turns quota_exhausted into a typed error without retrying', async () => {
    server.misbehaviour = 'quota';
    const error = await run().catch((caught: unknown) => caught);
    expect(UhpApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 429,
      type: 'rate_limit_error',
      code: 'quota_exhausted',
      detail: { required: 4096, available: 100 },
      isRetryable: false,
    });
    expect(server.requestsTo('POST', '/uhp/v1/responses')).toHaveLength(1);
  });

  it('cancels the task on the server when the caller aborts', async () => {
    server.misbehaviour = 'slow';
    const controller = new AbortController();
    const stream = await client().responses.stream({ input: 'long task' }, { signal: controller.signal });
    const seen: string[] = [];
    const consumed = (async () => {
      for await (const event of stream) {
        seen.push(event.type);
        controller.abort(new Error('user pressed Ctrl-C'));
      }
    })();
    await expect(consumed).rejects.toThrow('user pressed Ctrl-C');
    expect(seen).toEqual(['status']);
    expect(server.requestsTo('POST', '/uhp/v1/responses/resp_fake1/cancel')).toHaveLength(1);
    expect(server.cancelled).toBe(true);
  });

  it('refuses operations the server does not advertise, without sending them', async () => {
    server.capabilities.streaming = false;
    server.capabilities.session_listing = false;
    const uhp = client();
    await expect(uhp.responses.stream({ input: 'x' })).rejects.toBeInstanceOf(UhpCapabilityError);
    await expect(uhp.sessions.list()).rejects.toThrow("The server does not offer 'session_listing'");
    expect(server.requestsTo('POST', '/uhp/v1/responses')).toHaveLength(0);
    expect(server.requestsTo('GET', '/uhp/v1/sessions')).toHaveLength(0);
  });

  it('does not retry a client error', async () => {
    const error = await client()
      .harnesses.retrieve('chrn_missing')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 404, code: 'not_found', type: 'invalid_request_error' });
    expect(sleeps).toEqual([]);
  });
});
