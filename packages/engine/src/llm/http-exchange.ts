/** One HTTP request to the model server, as the client needs it. */
export interface HttpExchangeRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | undefined;
  signal: AbortSignal;
}

/** The response side: status, one header, and the body read once as text or discarded. */
export interface HttpExchangeResponse {
  status: number;
  header(name: string): string | null;
  text(): Promise<string>;
  discard(): Promise<void>;
}

export type HttpExchange = (url: string, init: HttpExchangeRequest) => Promise<HttpExchangeResponse>;

/** Over a `fetch` implementation: what callers inject (tests, proxies, instrumented clients). */
export function fetchExchange(fetchImplementation: typeof globalThis.fetch): HttpExchange {
  return async (url, init) => {
    const response = await fetchImplementation(url, init);
    return {
      status: response.status,
      header: (name) => response.headers.get(name),
      text: () => response.text(),
      discard: async () => {
        await response.body?.cancel();
      },
    };
  };
}

/**
 * Over undici's `request` with a keep-alive agent: the default. Every question is one HTTP call and a
 * request fans out to many at once, and on Node 20 `request` costs about a third of the CPU of the
 * global `fetch` per call (bench/llm-engine.mjs measures the engine against a direct `fetch`).
 * undici loads with the first call, so a server whose catalog only names model servers does not pay
 * for it at start-up (bench/decision-startup.mjs).
 */
export function undiciExchange(): HttpExchange {
  let undici:
    | Promise<{ agent: import('undici').Agent; request: typeof import('undici').request }>
    | undefined;
  return async (url, init) => {
    undici ??= import('undici').then(({ Agent, request }) => ({
      agent: new Agent({ keepAliveTimeout: 30_000 }),
      request,
    }));
    const { agent, request } = await undici;
    const response = await request(url, {
      method: init.method,
      headers: init.headers,
      body: init.body,
      signal: init.signal,
      dispatcher: agent,
    });
    return {
      status: response.statusCode,
      header: (name) => {
        const value = response.headers[name.toLowerCase()];
        return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
      },
      text: () => response.body.text(),
      discard: async () => {
        await response.body.dump();
      },
    };
  };
}
