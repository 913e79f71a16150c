import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake answers `POST /v1/responses`; each one is a way real deployments go wrong. */
export type Misbehaviour =
  | 'none'
  | 'drop-mid-stream' // closes the socket halfway, numbers nothing: the client must re-read
  | 'drop-resumable' // closes halfway but numbers events (`id:`) and honours Last-Event-ID
  | 'drop-before-created' // the first stream dies before its first event; a repeat is served whole
  | 'skip-sequence' // never sends one text delta
  | 'buffer-everything' // sends the whole stream in one write at the end
  | 'fail-503-once' // 503 server_error, then succeeds
  | 'rate-limit-once' // 429 rate_limited with Retry-After: 2, then succeeds
  | 'quota' // 429 quota_exhausted (never retryable)
  | 'slow'; // sends events 40 ms apart and never finishes until cancelled

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

const RESPONSE_ID = 'resp_fake1';
const TEXT = ['Hello', ', ', 'wor', 'ld', '!'];
const CITATION = {
  type: 'container_file_citation',
  container_id: 'cntr_1',
  file_id: 'file_1',
  filename: 'a.txt',
  download_url: '/v1/containers/cntr_1/files/file_1/content',
};

function response(status: string, withOutput: boolean) {
  return {
    id: RESPONSE_ID,
    object: 'response',
    created_at: 1_786_400_000,
    status,
    error: null,
    model: 'fake-model',
    output: withOutput
      ? [
          {
            id: 'fc_1',
            type: 'function_call',
            status: 'completed',
            call_id: 'call_1',
            name: 'write',
            arguments: '{"path":"a.txt"}',
          },
          { id: 'fco_1', type: 'function_call_output', call_id: 'call_1', output: 'wrote a.txt' },
          {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [
              {
                type: 'output_text',
                text: TEXT.join(''),
                annotations: [CITATION],
              },
            ],
          },
        ]
      : [],
    usage: withOutput ? { input_tokens: 12, output_tokens: 5, total_tokens: 17 } : null,
    metadata: { session_id: 'hsess_fake1', harness_id: 'chrn_a' },
  };
}

/** The complete, correct event sequence of the fake's one task. */
export function taskEvents(): Record<string, unknown>[] {
  const final = response('completed', true);
  const bodies: Record<string, unknown>[] = [
    { type: 'response.created', response: response('in_progress', false) },
    { type: 'response.in_progress', response: response('in_progress', false) },
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: { ...final.output[0], status: 'in_progress' },
    },
    { type: 'response.output_item.done', output_index: 0, item: final.output[0] },
    { type: 'response.output_item.added', output_index: 1, item: final.output[1] },
    { type: 'response.output_item.done', output_index: 1, item: final.output[1] },
    {
      type: 'response.output_item.added',
      output_index: 2,
      item: { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] },
    },
    ...TEXT.map((delta) => ({
      type: 'response.output_text.delta',
      item_id: 'msg_1',
      output_index: 2,
      content_index: 0,
      delta,
    })),
    {
      type: 'response.output_text.annotation.added',
      item_id: 'msg_1',
      output_index: 2,
      content_index: 0,
      annotation_index: 0,
      annotation: CITATION,
    },
    { type: 'response.output_item.done', output_index: 2, item: final.output[2] },
    { type: 'response.completed', response: final },
  ];
  return bodies.map((body, index) => ({ ...body, sequence_number: index }));
}

function sse(event: Record<string, unknown>, numbered: boolean): string {
  return `${numbered ? `id: ${event.sequence_number}\n` : ''}data: ${JSON.stringify(event)}\n\n`;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'uhp-version': '2026-08-11', ...headers });
  res.end(JSON.stringify(body));
}

function envelope(type: string, code: string, message: string, detail: unknown = null) {
  return { error: { type, code, message, param: null, detail } };
}

/**
 * A UHP server that misbehaves on purpose, speaking the real wire format over real HTTP on loopback.
 * It records every request so tests can check headers (Idempotency-Key, UHP-Version, Authorization).
 */
export class MisbehavingServer {
  readonly requests: RecordedRequest[] = [];
  misbehaviour: Misbehaviour = 'none';
  capabilities: Record<string, boolean> = {
    streaming: true,
    sessions: true,
    cancellation: true,
    files_input: true,
    files_output: true,
    session_listing: true,
    harness_management: false,
    session_sharing: false,
    idempotency: true,
  };
  /** How many `GET /v1/responses/{id}` reads still answer `in_progress` after a drop. */
  inProgressReads = 1;
  cancelled = false;
  /** Numbers events but answers a resume request with the stored response instead of a stream. */
  refuseResume = false;
  readonly #server: Server;
  #failuresLeft = 1;

  constructor() {
    this.#server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        this.#handle(req, res).catch((error: unknown) => {
          res.destroy(error instanceof Error ? error : undefined);
        });
      });
    });
  }

  async start(): Promise<string> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/uhp`;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close');
  }

  requestsTo(method: string, pathPrefix: string): RecordedRequest[] {
    return this.requests.filter((request) => request.method === method && request.url.startsWith(pathPrefix));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname.replace(/^\/uhp/, '');
    if (req.method === 'GET' && path === '/v1/uhp') {
      return sendJson(res, 200, {
        object: 'uhp.discovery',
        protocol: 'uhp',
        versions: ['2026-08-11'],
        default_version: '2026-08-11',
        conformance_class: 'extended',
        capabilities: this.capabilities,
      });
    }
    if (req.method === 'GET' && path === '/v1/harnesses') {
      return sendJson(res, 200, { harnesses: [{ id: 'chrn_a', name: 'alpha', base: 'agent' }] });
    }
    if (req.method === 'POST' && path === '/v1/responses') return this.#create(req, res);
    if (req.method === 'GET' && path === `/v1/responses/${RESPONSE_ID}`) {
      if (url.searchParams.get('stream') === 'true' && !this.refuseResume) {
        const after = Number(req.headers['last-event-id'] ?? -1);
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for (const event of taskEvents().filter((e) => (e.sequence_number as number) > after)) {
          res.write(sse(event, true));
        }
        return void res.end();
      }
      if (this.inProgressReads > 0) {
        this.inProgressReads--;
        return sendJson(res, 200, response('in_progress', false));
      }
      return sendJson(res, 200, response(this.cancelled ? 'cancelled' : 'completed', true));
    }
    if (req.method === 'POST' && path === `/v1/responses/${RESPONSE_ID}/cancel`) {
      this.cancelled = true;
      return sendJson(res, 200, response('cancelled', false));
    }
    if (req.method === 'GET' && path === '/v1/sessions') {
      return sendJson(res, 200, { sessions: [], next_cursor: null });
    }
    sendJson(res, 404, envelope('invalid_request_error', 'not_found', 'No such route on the fake.'));
  }

  async #create(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const events = taskEvents();
    const streamHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
    switch (this.misbehaviour) {
      case 'fail-503-once':
        if (this.#failuresLeft-- > 0) {
          return sendJson(
            res,
            503,
            envelope('server_error', 'harness_unavailable', 'No capacity right now.'),
          );
        }
        break;
      case 'rate-limit-once':
        if (this.#failuresLeft-- > 0) {
          return sendJson(res, 429, envelope('rate_limit_error', 'rate_limited', 'Slow down.'), {
            'retry-after': '2',
          });
        }
        break;
      case 'quota':
        return sendJson(
          res,
          429,
          envelope('rate_limit_error', 'quota_exhausted', 'The prepaid balance is too small.', {
            required: 4096,
            available: 100,
          }),
        );
      case 'buffer-everything':
        res.writeHead(200, streamHeaders);
        return void res.end(events.map((event) => sse(event, false)).join(''));
      case 'drop-mid-stream':
      case 'drop-resumable': {
        res.writeHead(200, streamHeaders);
        for (const event of events.slice(0, 9)) res.write(sse(event, this.misbehaviour === 'drop-resumable'));
        await new Promise((resolve) => setTimeout(resolve, 20));
        return void req.socket.destroy();
      }
      case 'drop-before-created':
        if (this.#failuresLeft-- > 0) {
          res.writeHead(200, streamHeaders);
          res.write(': accepted\n\n');
          await new Promise((resolve) => setTimeout(resolve, 20));
          return void req.socket.destroy();
        }
        break;
      case 'skip-sequence':
        res.writeHead(200, streamHeaders);
        for (const event of events) if (event.sequence_number !== 8) res.write(sse(event, false));
        return void res.end();
      case 'slow': {
        res.writeHead(200, streamHeaders);
        for (const event of events.slice(0, 3)) res.write(sse(event, false));
        await new Promise((resolve) => req.socket.once('close', resolve));
        return;
      }
      case 'none':
        break;
    }
    res.writeHead(200, streamHeaders);
    for (const event of events) {
      res.write(sse(event, false));
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.end();
  }
}
