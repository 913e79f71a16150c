import { randomUUID } from 'node:crypto';
import type { CreateResponseRequest } from '../../wire/request.js';
import { type InputItemList, inputItemListSchema } from '../../wire/request.js';
import { responseSchema, type UhpResponse } from '../../wire/response.js';
import { pathId, type ResourceContext } from '../resource-context.js';
import { ResponseStream } from '../response-stream.js';

export interface CreateOptions {
  /** Aborting asks the server to cancel the task (when it offers cancellation), then rejects. */
  readonly signal?: AbortSignal;
  /** Defaults to a fresh random key; the same key is sent on every retry of this call. */
  readonly idempotencyKey?: string;
}

/** `/v1/responses`: tasks. */
export class Responses {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /**
   * Runs a task and resolves to its final response. When the server streams, the call streams
   * underneath so that the task id is known early and an abort can cancel it on the server.
   */
  async create(body: CreateResponseRequest, options: CreateOptions = {}): Promise<UhpResponse> {
    if (options.signal && (await this.#context.has('streaming'))) {
      return (await this.stream(body, options)).finalResponse();
    }
    await this.#checkContinuation(body);
    const key = options.idempotencyKey ?? randomUUID();
    return this.#context.http.json(
      {
        method: 'POST',
        path: '/v1/responses',
        body: { ...body, stream: false },
        headers: { 'idempotency-key': key },
        signal: options.signal,
        idempotent: await this.#context.has('idempotency'),
      },
      (value) => responseSchema.parse(value),
    );
  }

  /**
   * Starts a task and resolves once the server has accepted it; iterate the result to follow the task
   * as normalised client events (see {@link ResponseStream}).
   */
  async stream(body: CreateResponseRequest, options: CreateOptions = {}): Promise<ResponseStream> {
    await this.#context.require('streaming', 'streaming a task');
    await this.#checkContinuation(body);
    const key = options.idempotencyKey ?? randomUUID();
    // Without server-side idempotency a retried POST could run the task twice, so it is not retried.
    const idempotent = await this.#context.has('idempotency');
    const http = this.#context.http;
    // Sent before returning, so a refused task (quota, unknown harness) rejects this call itself.
    const post = (signal: AbortSignal | undefined) =>
      http.send({
        method: 'POST',
        path: '/v1/responses',
        body: { ...body, stream: true },
        headers: { 'idempotency-key': key, accept: 'text/event-stream' },
        signal,
        idempotent,
      });
    return new ResponseStream({
      http,
      connection: await post(options.signal),
      reopen: idempotent ? post : undefined,
      signal: options.signal,
      cancelOnAbort: await this.#context.has('cancellation'),
    });
  }

  retrieve(responseId: string): Promise<UhpResponse> {
    return this.#context.http.json(
      { method: 'GET', path: `/v1/responses/${pathId(responseId)}`, idempotent: true },
      (value) => responseSchema.parse(value),
    );
  }

  inputItems(responseId: string): Promise<InputItemList> {
    return this.#context.http.json(
      { method: 'GET', path: `/v1/responses/${pathId(responseId)}/input_items`, idempotent: true },
      (value) => inputItemListSchema.parse(value),
    );
  }

  /** Stops the task; cancelling a finished task succeeds and changes nothing. */
  async cancel(responseId: string): Promise<UhpResponse> {
    await this.#context.require('cancellation', 'cancelling a task');
    return this.#context.http.json(
      { method: 'POST', path: `/v1/responses/${pathId(responseId)}/cancel`, idempotent: true },
      (value) => responseSchema.parse(value),
    );
  }

  /** Deletes the stored response; it never cancels a running task. */
  delete(responseId: string): Promise<unknown> {
    return this.#context.http.json(
      { method: 'DELETE', path: `/v1/responses/${pathId(responseId)}`, idempotent: true },
      (value) => value,
    );
  }

  async #checkContinuation(body: CreateResponseRequest): Promise<void> {
    if (body.previous_response_id) await this.#context.require('sessions', 'continuing a session');
  }
}
