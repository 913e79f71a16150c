/** The console's one way to the API: same origin, the signed-in key as a Bearer credential. */

const KEY_ITEM = 'arbiter.console.key';

/** A non-2xx answer, carrying what the API said (`error.code`, `error.message`, `error.param`). */
export class ApiFailure extends Error {
  override readonly name = 'ApiFailure';
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

/** The key lives for this tab only (sessionStorage): closing the tab signs out. */
export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_ITEM);
}

export function storeKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY_ITEM);
  else sessionStorage.setItem(KEY_ITEM, key);
}

export function authHeaders(): Record<string, string> {
  const key = storedKey();
  return key ? { authorization: `Bearer ${key}` } : {};
}

export interface RequestOptions {
  readonly method?: string;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** Further request headers (an `Idempotency-Key`). */
  readonly headers?: Readonly<Record<string, string>>;
}

function requestInit(options: RequestOptions): RequestInit {
  const headers: Record<string, string> = {
    ...options.headers,
    ...authHeaders(),
    accept: 'application/json',
  };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

/** The API's error envelope (`{error: {code, message, param}}`) as it stated it, else the status and text. */
async function failureOf(response: Response): Promise<ApiFailure> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; param?: unknown } };
    const error = body.error;
    if (error && typeof error.message === 'string')
      return new ApiFailure(
        response.status,
        typeof error.code === 'string' ? error.code : null,
        error.message,
        typeof error.param === 'string' ? error.param : null,
      );
  } catch {
    // Not JSON: shown as text below.
  }
  return new ApiFailure(
    response.status,
    null,
    `HTTP ${response.status}: ${text.slice(0, 500) || response.statusText}`,
  );
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await fetch(path, requestInit(options));
  if (!response.ok) throw await failureOf(response);
  return (await response.json()) as T;
}

/** Downloads a file the API serves behind the credential, under its own name. */
export async function download(path: string, filename: string): Promise<void> {
  const response = await fetch(path, { headers: authHeaders() });
  if (!response.ok) throw await failureOf(response);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export interface StreamEvent {
  readonly event: string;
  readonly data: unknown;
}

/**
 * POSTs and reads the answer as Server-Sent Events (EventSource cannot POST or send a header),
 * calling `onEvent` with each event's parsed JSON as it arrives.
 */
export async function postStream(
  path: string,
  body: unknown,
  onEvent: (event: StreamEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const response = await fetch(path, {
    ...requestInit({ body, ...(signal ? { signal } : {}) }),
    headers: { ...authHeaders(), 'content-type': 'application/json', accept: 'text/event-stream' },
  });
  if (!response.ok) throw await failureOf(response);
  if (!response.body) throw new ApiFailure(response.status, null, 'the answer has no body to stream');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += value.replace(/\r\n?/g, '\n');
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      end = buffered.indexOf('\n\n');
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length === 0) continue;
      const parsed = JSON.parse(data.join('\n')) as { type?: unknown };
      // UHP names the event in its data (`type`) and sends no `event:` field.
      onEvent({ event: typeof parsed.type === 'string' ? parsed.type : event, data: parsed });
    }
  }
}
