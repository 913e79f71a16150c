import { setTimeout as sleep } from 'node:timers/promises';
import { EngineError } from '@arbiter/decision';
import { backoffDelay, isRetryableStatus, parseRetryAfter } from '@arbiter/http-retry';
import type { z } from 'zod';
import {
  type ChatCompletion,
  chatCompletionSchema,
  modelListSchema,
  tokenizeResultSchema,
} from './chat-completion-wire.js';
import {
  fetchExchange,
  type HttpExchange,
  type HttpExchangeResponse,
  undiciExchange,
} from './http-exchange.js';
import { UpstreamStatusError } from './upstream-status-error.js';

export interface OpenAICompatibleClientOptions {
  baseURL: string;
  apiKeyEnv?: string | undefined;
  maxRetries: number;
  /** A `fetch` to send every call through; undici's keep-alive `request` when absent. */
  fetch?: typeof globalThis.fetch | undefined;
  /** Where `apiKeyEnv` is looked up; `process.env` unless a test supplies its own. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** Backoff windows from 100 ms doubling to 4 s: a busy model server gets room, a caller's budget is not spent idle. */
const UPSTREAM_BACKOFF = { baseDelayMs: 100, maxDelayMs: 4_000 };

export interface UpstreamCallOptions {
  signal: AbortSignal;
  /** Epoch milliseconds after which no retry is started. */
  deadlineAt?: number | undefined;
  /** False for probes, which must answer quickly rather than persist. */
  retry?: boolean | undefined;
}

/**
 * The HTTP side of the engine: chat completions, the model list and tokenization against one
 * OpenAI-compatible server, with retries inside the caller's budget and errors that never carry the key.
 * Plain HTTP rather than an SDK: the engine needs the raw `top_logprobs` and server-specific request
 * members (`allowed_token_ids`, `chat_template_kwargs`) with the least overhead per call.
 */
export class OpenAICompatibleClient {
  private readonly baseURL: string;
  private readonly exchange: HttpExchange;

  constructor(private readonly options: OpenAICompatibleClientOptions) {
    this.baseURL = options.baseURL.replace(/\/+$/, '');
    this.exchange = options.fetch ? fetchExchange(options.fetch) : undiciExchange();
  }

  chatCompletion(body: Record<string, unknown>, call: UpstreamCallOptions): Promise<ChatCompletion> {
    return this.request('POST', `${this.baseURL}/chat/completions`, body, chatCompletionSchema, call);
  }

  async listModels(call: UpstreamCallOptions): Promise<string[]> {
    const list = await this.request('GET', `${this.baseURL}/models`, undefined, modelListSchema, call);
    return list.data.map((model) => model.id);
  }

  /** vLLM and SGLang serve `/tokenize` beside `/v1`, at the server root. */
  async tokenize(model: string, text: string, call: UpstreamCallOptions): Promise<number[]> {
    const url = new URL('../tokenize', `${this.baseURL}/`).toString();
    const body = { model, prompt: text, add_special_tokens: false };
    return (await this.request('POST', url, body, tokenizeResultSchema, call)).tokens;
  }

  private async request<T>(
    method: 'GET' | 'POST',
    url: string,
    body: unknown,
    schema: z.ZodType<T>,
    call: UpstreamCallOptions,
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const key = this.apiKey();
    if (key !== undefined) headers.authorization = `Bearer ${key}`;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const maxRetries = call.retry === false ? 0 : this.options.maxRetries;

    for (let attempt = 0; ; attempt += 1) {
      let failure: EngineError;
      let retryAfter: string | null = null;
      try {
        const response = await this.exchange(url, { method, headers, body: payload, signal: call.signal });
        if (response.status >= 200 && response.status < 300)
          return this.parse(await response.text(), schema, url);
        retryAfter = response.header('retry-after');
        failure = await this.statusError(response, url);
      } catch (error) {
        if (call.signal.aborted) throw call.signal.reason;
        if (EngineError.isInstance(error)) throw error;
        failure = new EngineError({
          code: 'engine_unavailable',
          message: `could not reach the model server at ${origin(url)}: ${networkReason(error)}`,
          cause: error,
        });
      }
      if (!failure.isRetryable || attempt >= maxRetries) throw failure;
      const delay =
        parseRetryAfter(retryAfter) ?? backoffDelay({ ...UPSTREAM_BACKOFF, maxRetries }, attempt + 1);
      if (call.deadlineAt !== undefined && Date.now() + delay >= call.deadlineAt) {
        throw new EngineError({
          code: failure.code,
          message: `${failure.message} (next retry in ${delay} ms would pass the request budget)`,
        });
      }
      await sleep(delay, undefined, { signal: call.signal }).catch(() => {
        throw call.signal.reason;
      });
    }
  }

  private parse<T>(text: string, schema: z.ZodType<T>, url: string): T {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new EngineError({
        code: 'engine_error',
        message: `the model server at ${origin(url)} sent invalid JSON`,
      });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new EngineError({
        code: 'engine_error',
        message: `unexpected response from ${pathOf(url)}: ${issue?.path.join('.') || 'body'}: ${issue?.message}`,
      });
    }
    return parsed.data;
  }

  private async statusError(response: HttpExchangeResponse, url: string): Promise<UpstreamStatusError> {
    const status = response.status;
    const where = `${pathOf(url)} at ${origin(url)}`;
    if (status === 401 || status === 403) {
      await response.discard();
      const hint = this.options.apiKeyEnv ? `; check the key in $${this.options.apiKeyEnv}` : '';
      return new UpstreamStatusError({
        code: 'engine_error',
        message: `the model server rejected the credential (${status}) for ${where}${hint}`,
        status,
        isRetryable: false,
      });
    }
    const detail = this.scrub(upstreamMessage(await response.text().catch(() => '')));
    const message = `the model server answered ${status} for ${where}${detail ? `: ${detail}` : ''}`;
    if (status === 429 || status === 503)
      return new UpstreamStatusError({ code: 'engine_unavailable', message, status });
    if (status === 504) return new UpstreamStatusError({ code: 'engine_timeout', message, status });
    return new UpstreamStatusError({
      code: 'engine_error',
      message,
      status,
      isRetryable: isRetryableStatus(status),
    });
  }

  private apiKey(): string | undefined {
    const name = this.options.apiKeyEnv;
    if (name === undefined) return undefined;
    const value = (this.options.env ?? process.env)[name];
    if (!value) {
      throw new EngineError({
        code: 'engine_unavailable',
        message: `the environment variable ${name} that holds the model server's key is not set`,
        isRetryable: false,
      });
    }
    return value;
  }

  /** Servers sometimes echo request headers in error bodies; the key must not travel any further. */
  private scrub(text: string): string {
    const key = this.options.apiKeyEnv
      ? (this.options.env ?? process.env)[this.options.apiKeyEnv]
      : undefined;
    return key ? text.split(key).join('[redacted]') : text;
  }
}

function upstreamMessage(text: string): string {
  let message = text;
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const candidate = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    if (typeof candidate === 'string') message = candidate;
  } catch {
    // Not JSON: the raw text is the message.
  }
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

function networkReason(error: unknown): string {
  // undici's `request` puts the system error code on the error, `fetch` on its cause.
  const direct = (error as { code?: unknown }).code;
  if (typeof direct === 'string' && /^E[A-Z]+$/.test(direct)) return direct;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}

function origin(url: string): string {
  return new URL(url).origin;
}

function pathOf(url: string): string {
  return new URL(url).pathname;
}
