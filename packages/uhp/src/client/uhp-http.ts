import { UHP_VERSION, UHP_VERSION_HEADER } from '../wire/version.js';
import { DEFAULT_RETRY_POLICY, nextRetryDelay, type RetryPolicy } from './retry-policy.js';
import { createUhpApiError, UhpApiError } from './uhp-api-error.js';
import { UhpConnectionError } from './uhp-connection-error.js';
import { UhpProtocolVersionError } from './uhp-protocol-version-error.js';

export interface UhpHttpOptions {
  /** The server's base URL, up to but excluding `/v1` (Arbiter: `http://host:port/api/harness`). */
  readonly baseURL: string;
  readonly apiKey?: string | undefined;
  readonly fetch?: typeof globalThis.fetch;
  readonly retry?: Partial<RetryPolicy>;
  /** Protocol version sent in `UHP-Version`; defaults to the one this package speaks. */
  readonly version?: string;
  /** Only for tests: jitter source and clock for the backoff. */
  readonly random?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface UhpRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly query?: Record<string, string | number | undefined>;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly signal?: AbortSignal | undefined;
  /** Whether a retry cannot run the operation twice (GET, or a POST carrying an Idempotency-Key). */
  readonly idempotent: boolean;
  /** Discovery is public: the bearer token is not sent there. */
  readonly anonymous?: boolean;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The transport every resource shares: URL building, `UHP-Version` and bearer headers, the error
 * envelope turned into {@link UhpApiError}, and retries under the {@link RetryPolicy}.
 */
export class UhpHttp {
  readonly baseURL: string;
  readonly version: string;
  readonly retryPolicy: RetryPolicy;
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof globalThis.fetch;
  readonly #random: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(options: UhpHttpOptions) {
    this.baseURL = options.baseURL.replace(/\/+$/, '');
    this.version = options.version ?? UHP_VERSION;
    this.retryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#random = options.random ?? Math.random;
    this.#sleep = options.sleep ?? abortableSleep;
  }

  get hasApiKey(): boolean {
    return this.#apiKey !== undefined && this.#apiKey !== '';
  }

  url(path: string, query?: UhpRequest['query']): string {
    const url = new URL(`${this.baseURL}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  /** Sends the request (retrying when allowed) and returns the successful raw `Response`. */
  async send(request: UhpRequest): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#attempt(request);
      } catch (error) {
        if (request.signal?.aborted) throw error;
        const delay = request.idempotent
          ? nextRetryDelay(this.retryPolicy, attempt, error, this.#random)
          : null;
        if (delay === null) throw error;
        await this.#sleep(delay, request.signal);
      }
    }
  }

  /** Sends and parses a JSON body, validating it with `parse` (a zod schema's `parse`). */
  async json<T>(request: UhpRequest, parse: (value: unknown) => T): Promise<T> {
    const response = await this.send(request);
    const body: unknown = await response.json().catch((cause: unknown) => {
      throw new UhpApiError({
        status: response.status,
        type: 'server_error',
        code: 'invalid_response',
        message: `The server answered ${request.method} ${request.path} with a body that is not JSON.`,
        cause,
      });
    });
    try {
      return parse(body);
    } catch (cause) {
      throw new UhpApiError({
        status: response.status,
        type: 'server_error',
        code: 'invalid_response',
        message: `The server's answer to ${request.method} ${request.path} does not match the UHP schema.`,
        cause,
      });
    }
  }

  async #attempt(request: UhpRequest): Promise<Response> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      [UHP_VERSION_HEADER]: this.version,
      ...request.headers,
    };
    if (this.hasApiKey && !request.anonymous) headers.authorization = `Bearer ${this.#apiKey}`;
    let body: string | FormData | undefined;
    if (request.body instanceof FormData) body = request.body;
    else if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    let response: Response;
    try {
      response = await this.#fetch(this.url(request.path, request.query), {
        method: request.method,
        headers,
        body,
        signal: request.signal ?? null,
      });
    } catch (cause) {
      if (request.signal?.aborted) throw cause;
      const target = new URL(this.baseURL).origin;
      throw new UhpConnectionError(
        `Could not reach the UHP server at ${target} (${request.method} ${request.path}): ${networkFailureReason(cause)}.`,
        { cause },
      );
    }
    if (response.ok) return response;
    const errorBody: unknown = await response.json().catch(() => undefined);
    const error = createUhpApiError(response.status, errorBody, response.headers);
    // The one answer no retry and no other request can change: it gets the error `connect()` gives.
    if (error.is('unsupported_protocol_version')) {
      const supported = error.detail?.supported;
      throw new UhpProtocolVersionError(
        this.version,
        Array.isArray(supported) ? supported.filter((value) => typeof value === 'string') : [],
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * Why a fetch failed, in a user's words: undici throws `fetch failed` and keeps the system error
 * (ECONNREFUSED, ENOTFOUND, a certificate problem, …) in `cause`.
 */
function networkFailureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' && !cause.message.includes(code)
      ? `${code}: ${cause.message}`
      : cause.message;
  }
  return error.message;
}
