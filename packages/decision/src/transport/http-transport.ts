import { isRetryableAnswer, parseRetryAfter } from '@arbiter/http-retry';
import { z } from 'zod';
import type { DecisionTransport, TransportFailure, TransportOutcome } from '../client/decision-transport.js';
import { errorBodySchema } from '../wire/error.js';
import { DECISION_LIMITS } from '../wire/limits.js';

export interface HttpTransportOptions {
  /** Server address, e.g. `https://arbiter.example.com`. Default: ARBITER_BASE_URL, else http://127.0.0.1:7411. */
  baseURL?: string;
  /**
   * API key sent as `Authorization: Bearer …`. Default: ARBITER_API_KEY. Without one (`null`, or
   * neither given nor set) requests go without a credential, which a server started with
   * `--no-auth` answers; a server that wants a key answers 401, and the call is then a
   * `missing_key` skip that says to set ARBITER_API_KEY.
   */
  apiKey?: string | null;
  /** The fetch to use (a proxy-aware or instrumented one). Default: the global fetch. */
  fetch?: typeof globalThis.fetch;
  /** Request path under the base URL. Default `/v1/decision`; `/v1/systemone` serves the same. */
  path?: string;
  /** Extra request headers (tracing and the like). */
  headers?: Record<string, string>;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:7411';

/**
 * Largest response body the client reads. A decision response is a few kilobytes (64 questions of 255
 * options stay far below); the cap keeps a broken or hostile server from filling the caller's memory.
 */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** Sends decisions to an Arbiter server (or any server of the public wire format) over HTTP. */
export function createHttpTransport(options: HttpTransportOptions = {}): DecisionTransport {
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  const apiKey = options.apiKey === undefined ? nonEmpty(process.env.ARBITER_API_KEY) : options.apiKey;
  const baseURL = options.baseURL ?? nonEmpty(process.env.ARBITER_BASE_URL) ?? DEFAULT_BASE_URL;
  const endpoint = resolveEndpoint(
    baseURL,
    options.path ?? '/v1/decision',
    options.baseURL === undefined ? 'environment' : 'option',
  );

  return {
    name: 'http',
    async send(request, { signal }) {
      if (typeof endpoint === 'string') return failure('client_error', endpoint);
      const body = JSON.stringify(request);
      const bytes = Buffer.byteLength(body);
      if (bytes > DECISION_LIMITS.maxBodyBytes) {
        return failure(
          'client_error',
          `the request is ${bytes} bytes, above the ${DECISION_LIMITS.maxBodyBytes}-byte limit; keep large content out of the state`,
        );
      }
      const outcome = await post(
        fetchImplementation,
        endpoint,
        body,
        requestHeaders(apiKey ?? null, options.headers),
        signal,
      );
      // No key was configured and the server wants one: that is the reason, not the 401 itself.
      if (apiKey === undefined && !outcome.ok && outcome.status === 401) {
        return failure('missing_key', `no API key: ${endpoint.origin} requires one; set ARBITER_API_KEY`, {
          status: 401,
        });
      }
      return outcome;
    },
  };
}

async function post(
  fetchImplementation: typeof globalThis.fetch,
  endpoint: URL,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<TransportOutcome> {
  let response: Response;
  let text: string;
  try {
    // Redirects are not followed: a redirected POST would carry the key to an address nobody configured.
    response = await fetchImplementation(endpoint, {
      method: 'POST',
      headers,
      body,
      signal,
      redirect: 'manual',
    });
    const received = await readBodyWithin(response, MAX_RESPONSE_BYTES);
    if (received === undefined) {
      await response.body?.cancel().catch(() => {});
      return failure(
        'invalid_response',
        `HTTP ${response.status} with a body over ${MAX_RESPONSE_BYTES} bytes`,
        {
          status: response.status,
        },
      );
    }
    text = received;
  } catch (error) {
    if (signal.aborted) return failure('aborted', 'aborted');
    return failure(
      'network',
      `POST ${endpoint.origin}${endpoint.pathname} failed: ${describeNetworkError(error)}`,
      {
        retryable: true,
      },
    );
  }
  if (response.ok) {
    try {
      return { ok: true, body: JSON.parse(text) };
    } catch {
      return failure('invalid_response', `HTTP ${response.status} with a body that is not JSON`, {
        status: response.status,
      });
    }
  }
  return failureForStatus(response, text);
}

/** The body as text, or undefined as soon as it exceeds `limit` bytes. */
async function readBodyWithin(response: Response, limit: number): Promise<string | undefined> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > limit) return undefined;
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function failureForStatus(response: Response, text: string): TransportFailure {
  const { status } = response;
  if (status >= 300 && status < 400) {
    return failure(
      'client_error',
      `HTTP ${status} redirect to ${response.headers.get('location') ?? '(no location)'}; set the base URL to the final address`,
      { status },
    );
  }
  const envelope = readErrorEnvelope(text);
  const retryable = isRetryableAnswer(status, envelope.retryable);
  const retryAfterMs = retryable ? parseRetryAfter(response.headers.get('retry-after')) : undefined;
  const extra = { status, retryable, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  if (status === 429) return failure('rate_limited', `HTTP 429 rate limited${envelope.detail}`, extra);
  if (status >= 500) return failure('server_error', `HTTP ${status}${envelope.detail}`, extra);
  const hint = status === 401 || status === 403 ? ' (check ARBITER_API_KEY)' : '';
  return failure('client_error', `HTTP ${status}${envelope.detail}${hint}`, extra);
}

/**
 * The envelope's optional `retryable` flag, which a server with an error registry sets to say
 * whether the same request may succeed again. Read beside `errorBodySchema` rather than in it: that
 * schema is also what the server declares it sends.
 */
const retryableFlagSchema = z.object({ error: z.object({ retryable: z.boolean() }) });

/**
 * What an error answer says: `detail`, `: <code>: <message>` from the error envelope or a short
 * excerpt of a body of another shape; `retryable`, the envelope's flag when it has one.
 */
function readErrorEnvelope(text: string): { detail: string; retryable: boolean | undefined } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: a proxy's HTML page or plain text; an excerpt still helps.
  }
  const parsed = errorBodySchema.safeParse(body);
  if (parsed.success) {
    const flag = retryableFlagSchema.safeParse(body);
    return {
      detail: `: ${parsed.data.error.code}: ${parsed.data.error.message}`,
      retryable: flag.success ? flag.data.error.retryable : undefined,
    };
  }
  const excerpt = text.trim().slice(0, 200);
  return { detail: excerpt.length > 0 ? `: ${excerpt}` : '', retryable: undefined };
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici reports `fetch failed` and puts the system error (ECONNREFUSED, ECONNRESET, …) in `cause`.
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${code} (${cause.message})` : cause.message;
  }
  return error.message;
}

function requestHeaders(
  apiKey: string | null,
  extra: Record<string, string> | undefined,
): Record<string, string> {
  return {
    ...extra,
    'content-type': 'application/json',
    accept: 'application/json',
    ...(apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }),
  };
}

function resolveEndpoint(baseURL: string, path: string, source: 'option' | 'environment'): URL | string {
  try {
    const url = new URL(baseURL);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return `the base URL must be http or https, got ${url.protocol}`;
    }
    // Keep a path prefix of the base URL (`https://host/arbiter` + `/v1/decision`).
    url.pathname = url.pathname.replace(/\/+$/, '') + path;
    return url;
  } catch {
    return `the base URL "${baseURL}" is not a valid URL${source === 'environment' ? ' (from ARBITER_BASE_URL)' : ''}`;
  }
}

function failure(
  reason: TransportFailure['reason'],
  message: string,
  extra: Partial<Pick<TransportFailure, 'status' | 'retryable' | 'retryAfterMs'>> = {},
): TransportFailure {
  return { ok: false, reason, message, retryable: false, ...extra };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
