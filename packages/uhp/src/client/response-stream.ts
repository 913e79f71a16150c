import { isTerminalEventType, type StreamEvent, streamEventSchema } from '../wire/event.js';
import { responseSchema, TERMINAL_RESPONSE_STATUSES, type UhpResponse } from '../wire/response.js';
import type { UhpClientEvent } from './client-event.js';
import { ResponseReconciler } from './response-reconciler.js';
import { readSseMessages } from './sse-reader.js';
import { UhpApiError } from './uhp-api-error.js';
import { UhpConnectionError } from './uhp-connection-error.js';
import type { UhpHttp } from './uhp-http.js';

export interface ResponseStreamOptions {
  readonly http: UhpHttp;
  /** The answer to the `POST /v1/responses` that started the task (normally an event stream). */
  readonly connection: Response;
  /**
   * Repeats that POST with the same Idempotency-Key, for a connection lost before the server named the
   * task; only given when the server promises idempotency (the repeat then joins the first execution).
   */
  readonly reopen?: ((signal: AbortSignal | undefined) => Promise<Response>) | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Whether aborting `signal` asks the server to cancel the task (needs the `cancellation` capability). */
  readonly cancelOnAbort: boolean;
  /** Connections re-established after drops before giving up; default 5. */
  readonly maxReconnects?: number;
  /** How often the stored response is re-read while the task runs; default 500 ms. */
  readonly pollIntervalMs?: number;
}

const isTerminal = (response: UhpResponse) => TERMINAL_RESPONSE_STATUSES.includes(response.status);

function parseEvent(data: string): StreamEvent {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch (cause) {
    throw new UhpApiError({
      status: 200,
      type: 'server_error',
      code: 'invalid_event',
      message: 'The server sent a stream event that is not JSON.',
      cause,
    });
  }
  const parsed = streamEventSchema.safeParse(json);
  if (!parsed.success) {
    throw new UhpApiError({
      status: 200,
      type: 'server_error',
      code: 'invalid_event',
      message: 'The server sent a stream event without a type and sequence number.',
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/**
 * Follows one task to its end as normalised {@link UhpClientEvent}s, treating the stream as an
 * optimisation and the stored response as the truth: sequence numbers are checked for gaps; a dropped
 * connection is resumed with `Last-Event-ID` when the server numbers its SSE messages (and honours it),
 * otherwise the response is re-read with `GET /v1/responses/{id}` until it is terminal; whatever the
 * stream missed is reconciled from the final response. Aborting the signal cancels the task on the
 * server (when allowed) and then rejects with the abort reason.
 */
export class ResponseStream implements AsyncIterable<UhpClientEvent> {
  readonly #options: ResponseStreamOptions;
  #responseId: string | null = null;
  #consumed = false;

  constructor(options: ResponseStreamOptions) {
    this.#options = options;
  }

  /** The id of the task, once the server has named it. */
  get responseId(): string | null {
    return this.#responseId;
  }

  /** Consumes the stream and resolves to the final response. */
  async finalResponse(): Promise<UhpResponse> {
    for await (const event of this) if (event.type === 'done') return event.response;
    throw new UhpConnectionError('The stream ended without a final response.');
  }

  [Symbol.asyncIterator](): AsyncIterator<UhpClientEvent> {
    if (this.#consumed) throw new Error('A ResponseStream can be iterated only once.');
    this.#consumed = true;
    return this.#run();
  }

  async *#run(): AsyncGenerator<UhpClientEvent> {
    const { signal } = this.#options;
    try {
      yield* this.#follow();
    } catch (error) {
      if (signal?.aborted) {
        await this.#cancelOnServer();
        throw signal.reason;
      }
      throw error;
    }
  }

  async *#follow(): AsyncGenerator<UhpClientEvent> {
    const { http, signal } = this.#options;
    const maxReconnects = this.#options.maxReconnects ?? 5;
    const reconciler = new ResponseReconciler();
    let expected = 0;
    let resumable = false;
    let disturbed = false;
    let reconnects = 0;
    let connection: Response | null = this.#options.connection;

    while (true) {
      if (connection !== null) {
        const contentType = connection.headers.get('content-type') ?? '';
        if (!contentType.includes('text/event-stream')) {
          // A server may answer a stream request with the response object itself (e.g. already terminal).
          const parsed = responseSchema.safeParse(await connection.json().catch(() => undefined));
          if (!parsed.success) {
            throw new UhpApiError({
              status: connection.status,
              type: 'server_error',
              code: 'invalid_response',
              message: 'The server answered a stream request with neither events nor a response object.',
              cause: parsed.error,
            });
          }
          this.#responseId = parsed.data.id;
          if (isTerminal(parsed.data)) return yield* this.#finish(reconciler, parsed.data, false);
          resumable = false; // it did not stream this time; follow the stored response instead
        } else if (connection.body) {
          try {
            for await (const message of readSseMessages(connection.body)) {
              if (message.id !== undefined && message.id !== '') resumable = true;
              const event = parseEvent(message.data);
              if (event.sequence_number < expected) continue; // already seen before a reconnect
              if (event.sequence_number > expected) {
                disturbed = true;
                yield { type: 'sequence-gap', expected, received: event.sequence_number };
              }
              expected = event.sequence_number + 1;
              if (event.response) this.#responseId = event.response.id;
              if (isTerminalEventType(event.type) && event.response) {
                return yield* this.#finish(reconciler, event.response, disturbed);
              }
              yield* reconciler.fromEvent(event);
            }
          } catch (error) {
            if (signal?.aborted || UhpApiError.isInstance(error)) throw error;
            // Anything else is the connection breaking (undici reports it as a TypeError, 'terminated'
            // or a socket error); the task goes on without us, and the stored response will tell.
          }
        }
      }
      if (++reconnects > maxReconnects) {
        throw new UhpConnectionError(`The stream dropped ${maxReconnects} times; giving up following it.`);
      }
      disturbed = true;
      if (this.#responseId === null) {
        const { reopen } = this.#options;
        if (!reopen) throw new UhpConnectionError('The connection closed before the server named the task.');
        yield { type: 'reconnect', mode: 'repeat', attempt: reconnects };
        connection = await reopen(signal);
        continue;
      }
      if (resumable) {
        yield { type: 'reconnect', mode: 'resume', attempt: reconnects };
        connection = await http
          .send({
            method: 'GET',
            path: `/v1/responses/${encodeURIComponent(this.#responseId)}`,
            query: { stream: 'true' },
            headers: { accept: 'text/event-stream', 'last-event-id': String(expected - 1) },
            signal,
            idempotent: true,
          })
          .catch((error: unknown) => {
            if (signal?.aborted) throw error;
            resumable = false; // the server numbers events but will not resume; re-read instead
            return null;
          });
        continue;
      }
      yield { type: 'reconnect', mode: 'reread', attempt: reconnects };
      return yield* this.#pollUntilTerminal(reconciler);
    }
  }

  async *#pollUntilTerminal(reconciler: ResponseReconciler): AsyncGenerator<UhpClientEvent> {
    const interval = this.#options.pollIntervalMs ?? 500;
    while (true) {
      const stored = await this.#read();
      if (isTerminal(stored)) return yield* this.#finish(reconciler, stored, false);
      yield* reconciler.fromResponse(stored);
      await new Promise((resolve) => setTimeout(resolve, interval));
      this.#options.signal?.throwIfAborted();
    }
  }

  async *#finish(
    reconciler: ResponseReconciler,
    final: UhpResponse,
    confirmWithStored: boolean,
  ): AsyncGenerator<UhpClientEvent> {
    // After a gap or a reconnect the stored copy is re-read: it, not our partial view, is the record.
    // A store that lags behind the terminal event (still `in_progress`) does not overrule it.
    const stored = confirmWithStored && final.store !== false ? await this.#read() : final;
    const response = isTerminal(stored) ? stored : final;
    yield* reconciler.fromResponse(response);
    yield { type: 'usage', usage: response.usage ?? null };
    yield { type: 'done', response };
  }

  #read(): Promise<UhpResponse> {
    return this.#options.http.json(
      {
        method: 'GET',
        path: `/v1/responses/${encodeURIComponent(this.#responseId ?? '')}`,
        signal: this.#options.signal,
        idempotent: true,
      },
      (value) => responseSchema.parse(value),
    );
  }

  async #cancelOnServer(): Promise<void> {
    if (!this.#options.cancelOnAbort || this.#responseId === null) return;
    await this.#options.http.send({
      method: 'POST',
      path: `/v1/responses/${encodeURIComponent(this.#responseId)}/cancel`,
      signal: AbortSignal.timeout(10_000),
      idempotent: true,
    });
  }
}
