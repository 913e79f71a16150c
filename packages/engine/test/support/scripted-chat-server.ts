import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The one scripted OpenAI-compatible model server the tests run on 127.0.0.1 (hosted model servers
 * cannot run here). It speaks the chat-completions wire format as the real API does: a request with
 * `stream: true` gets `data: {chunk}` SSE lines (`delta.content`, `delta.reasoning_content`,
 * `delta.tool_calls` with the arguments split across chunks, a chunk with `finish_reason`, a usage
 * chunk with empty `choices`, then `data: [DONE]`); any other request gets one `chat.completion`
 * object, with the first token's `logprobs` and `top_logprobs` when the reply names them. Errors
 * come in the API's `{ error: { message, type, code } }` envelope. A script picks each reply from
 * the request and its index; `GET …/models` is answered from `models` when the server is given some.
 */

/** One request as it arrived: what a test asserts on. */
export interface ScriptedChatRequest {
  readonly method: string;
  /** The request path, `/v1/chat/completions` for a completion. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly authorization: string | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: a request body is whatever chat-completion JSON the client sent.
  readonly body: any;
  /** The contents of the request's messages, one a line: what most scripts read. */
  readonly prompt: string;
  readonly startedAt: number;
  /** When the answer was written; absent while it is pending or when the client went away first. */
  finishedAt?: number;
  /** The client closed the connection before the answer was complete. */
  aborted: boolean;
}

/** A tool call the model makes: a function name and its arguments. */
export interface ScriptedToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** What the model answers one request with. */
export interface ScriptedReply {
  /** The assistant's text (for `top`, the first candidate when absent). */
  readonly text?: string;
  /** Reasoning text, sent as `reasoning_content` before the text. */
  readonly reasoning?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  /**
   * The first generated token's candidates, most likely first, each with its probability: the
   * choice's `logprobs.content[0]` and its `top_logprobs`.
   */
  readonly top?: readonly (readonly [token: string, probability: number])[];
  /** Absent: no usage is reported (a provider that does not report it). */
  readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number };
  /** Default: `tool_calls` with tool calls, `length` for a one-token `top` answer, else `stop`. */
  readonly finishReason?: 'stop' | 'length' | 'tool_calls';
  /** The model the answer names (default: the model the request asked for). */
  readonly model?: string;
  /** An HTTP status of 400 or more answers an error in the API's envelope instead. */
  readonly status?: number;
  /** The error's message, type and code (absent: insufficient credit, billing, payment_required). */
  readonly error?: { readonly message?: string; readonly type?: string; readonly code?: string };
  /** Extra response headers (for example `retry-after`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** This JSON body as it stands, with `status` (default 200): for bodies a test shapes by hand. */
  readonly json?: unknown;
  /** Milliseconds to wait before answering (to test timeouts, aborts and concurrency). */
  readonly delayMs?: number;
}

export type ChatScript = (
  request: ScriptedChatRequest,
  index: number,
) => ScriptedReply | Promise<ScriptedReply>;

export interface ScriptedChatServerOptions {
  /** Model ids `GET …/models` lists; without them that request goes to the script like any other. */
  readonly models?: readonly string[];
}

const DEFAULT_ERROR = { message: 'insufficient credit', type: 'billing', code: 'payment_required' };

function finishReasonOf(reply: ScriptedReply): string {
  if (reply.finishReason !== undefined) return reply.finishReason;
  if ((reply.toolCalls?.length ?? 0) > 0) return 'tool_calls';
  return reply.top !== undefined && reply.text === undefined ? 'length' : 'stop';
}

function usageOf(reply: ScriptedReply) {
  const usage = reply.usage;
  return usage && { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

/** The `logprobs` member of a choice whose first token had the candidates `top`. */
function logprobsOf(top: NonNullable<ScriptedReply['top']>) {
  const candidates = top.map(([token, probability]) => ({
    token,
    logprob: Math.log(probability),
    bytes: [...Buffer.from(token)],
  }));
  return { content: [{ ...candidates[0], top_logprobs: candidates }] };
}

function toolCallsOf(calls: readonly ScriptedToolCall[], id: string) {
  return calls.map((call, index) => ({
    id: `call_${id}_${index}`,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

/** A whole `chat.completion` object answering with `reply`, as a non-streaming request gets it. */
export function chatCompletion(reply: ScriptedReply, model: string, id = 'chatcmpl-scripted') {
  const toolCalls = reply.toolCalls ?? [];
  const usage = usageOf(reply);
  return {
    id,
    object: 'chat.completion',
    created: 1_763_800_000,
    model: reply.model ?? model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? reply.top?.[0]?.[0] ?? (toolCalls.length > 0 ? null : ''),
          ...(reply.reasoning === undefined ? {} : { reasoning_content: reply.reasoning }),
          ...(toolCalls.length > 0 ? { tool_calls: toolCallsOf(toolCalls, id) } : {}),
        },
        logprobs: reply.top === undefined ? null : logprobsOf(reply.top),
        finish_reason: finishReasonOf(reply),
      },
    ],
    ...(usage && { usage }),
  };
}

/** The SSE chunks of `reply`, as a streaming request gets them. */
function* completionChunks(reply: ScriptedReply, model: string, id: string): Generator<unknown> {
  const base = { id, object: 'chat.completion.chunk', created: 1_763_800_000, model: reply.model ?? model };
  const delta = (value: Record<string, unknown>, finish: string | null = null, extra = {}) => ({
    ...base,
    choices: [{ index: 0, delta: value, finish_reason: finish, ...extra }],
  });
  yield delta({ role: 'assistant', content: '' });
  if (reply.reasoning) yield delta({ reasoning_content: reply.reasoning });
  const words = (reply.text ?? reply.top?.[0]?.[0] ?? '').match(/\S+\s*/g) ?? [];
  for (const [index, word] of words.entries())
    yield delta(
      { content: word },
      null,
      index === 0 && reply.top !== undefined ? { logprobs: logprobsOf(reply.top) } : {},
    );
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    const json = JSON.stringify(call.arguments);
    const half = Math.floor(json.length / 2);
    yield delta({
      tool_calls: [
        {
          index,
          id: `call_${id}_${index}`,
          type: 'function',
          function: { name: call.name, arguments: json.slice(0, half) },
        },
      ],
    });
    yield delta({ tool_calls: [{ index, function: { arguments: json.slice(half) } }] });
  }
  yield delta({}, finishReasonOf(reply));
  const usage = usageOf(reply);
  if (usage) yield { ...base, choices: [], usage };
}

/** The contents of a chat request's messages, one a line. */
function promptOf(body: unknown): string {
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return '';
  return messages
    .map((message: { content?: unknown }) =>
      typeof message?.content === 'string' ? message.content : JSON.stringify(message?.content ?? ''),
    )
    .join('\n');
}

export class ScriptedChatServer {
  readonly requests: ScriptedChatRequest[] = [];
  /** Requests being answered now, and the most there were at once. */
  inFlight = 0;
  maxInFlight = 0;
  #server: http.Server | undefined;
  #baseURL = '';

  /** `script` may be replaced between requests: a test scripts each case. */
  constructor(
    public script: ChatScript,
    readonly options: ScriptedChatServerOptions = {},
  ) {}

  /** `http://127.0.0.1:PORT/v1`, the base URL a client is configured with. */
  get baseURL(): string {
    return this.#baseURL;
  }

  /** The completion requests, without the model listings and tokenizer calls. */
  chatRequests(): ScriptedChatRequest[] {
    return this.requests.filter((request) => request.path === '/v1/chat/completions');
  }

  async start(): Promise<this> {
    const server = http.createServer((request, response) => {
      this.#answer(request, response).catch((error: unknown) => {
        // A script that throws is a test bug: answered as a server error that names it.
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: String(error), type: 'server_error' } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.#server = server;
    this.#baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async #answer(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = request.url ?? '';
    const models = this.options.models;
    if (models !== undefined && request.method === 'GET' && path.endsWith('/models')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model' })) }));
      return;
    }
    const body = text === '' ? {} : JSON.parse(text);
    const recorded: ScriptedChatRequest = {
      method: request.method ?? '',
      path,
      headers: request.headers,
      authorization: request.headers.authorization,
      body,
      prompt: promptOf(body),
      startedAt: Date.now(),
      aborted: false,
    };
    this.requests.push(recorded);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    response.on('close', () => {
      if (!response.writableFinished) recorded.aborted = true;
      this.inFlight -= 1;
    });
    const reply = await this.script(recorded, this.requests.length - 1);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (response.destroyed) return;
    recorded.finishedAt = Date.now();
    const headers = { 'content-type': 'application/json', ...reply.headers };
    if (reply.json !== undefined) {
      response.writeHead(reply.status ?? 200, headers).end(JSON.stringify(reply.json));
      return;
    }
    if (reply.status !== undefined && reply.status >= 400) {
      response.writeHead(reply.status, headers).end(JSON.stringify({ error: reply.error ?? DEFAULT_ERROR }));
      return;
    }
    const model = typeof body.model === 'string' ? body.model : 'scripted-model';
    const id = `chatcmpl-${this.requests.length}`;
    if (body.stream !== true) {
      response.writeHead(reply.status ?? 200, headers).end(JSON.stringify(chatCompletion(reply, model, id)));
      return;
    }
    response.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const chunk of completionChunks(reply, model, id))
      response.write(`data: ${JSON.stringify(chunk)}\n\n`);
    response.end('data: [DONE]\n\n');
  }
}

/** A scripted server listening on loopback. */
export function startScriptedChatServer(
  script: ChatScript,
  options: ScriptedChatServerOptions = {},
): Promise<ScriptedChatServer> {
  return new ScriptedChatServer(script, options).start();
}

/** The tool results (role `tool` messages) a request carried. */
export function toolMessages(request: ScriptedChatRequest | undefined): string[] {
  const messages: { role: string; content: unknown }[] = request?.body.messages ?? [];
  return messages.filter((message) => message.role === 'tool').map((message) => String(message.content));
}
