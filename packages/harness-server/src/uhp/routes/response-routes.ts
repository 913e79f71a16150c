import { createResponseRequestSchema, type UhpResponse } from '@arbiter/uhp/wire';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isObjectId } from '../object-id.js';
import { responseSnapshot } from '../streaming/response-snapshot.js';
import { invalidInput, notFound } from '../uhp-error.js';
import type { UhpServices } from '../uhp-services.js';
import { openEventStream } from './event-stream.js';
import { parseBody } from './parse-body.js';

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Tasks: create (blocking, streaming, background), read, resume the stream, input items, delete, cancel. */
export function registerResponseRoutes(app: FastifyInstance, services: UhpServices): void {
  const { store, events, runner, tasks } = services;
  type ResponseParams = { Params: { response_id: string } };

  const lookup = async (principalId: string, id: string) => {
    const stored = isObjectId(id, 'resp') ? await store.getResponse(principalId, id) : undefined;
    if (!stored) throw notFound('response_not_found', 'response');
    return stored;
  };

  const streamFrom = async (
    request: FastifyRequest,
    reply: FastifyReply,
    responseId: string,
    afterSequence: number,
  ) => {
    const writer = openEventStream(request, reply, services);
    try {
      for await (const event of events.follow(responseId, afterSequence, writer.disconnected)) {
        await writer.send(event, event.sequence_number);
      }
    } finally {
      writer.end();
    }
  };

  // Inline files arrive base64-encoded in JSON, so the body limit leaves room for that encoding.
  const bodyLimit = Math.ceil((tasks.limits.maxFileBytes * 4) / 3) + 1024 * 1024;

  app.post('/v1/responses', { bodyLimit }, async (request, reply) => {
    const principalId = services.principalOf(request);
    const body = parseBody(createResponseRequestSchema, request.body);
    const key = request.headers['idempotency-key'];
    if (
      Array.isArray(key) ||
      (key !== undefined && (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH))
    )
      throw invalidInput('Idempotency-Key must be one value of 1 to 255 characters.', 'Idempotency-Key');
    const { responseId, replayed } = await tasks.create(principalId, body, {
      idempotencyKey: key ?? null,
      baseUrl: services.baseUrlOf(request),
    });
    if (replayed) reply.header('idempotent-replayed', 'true');
    if (body.stream === true) return streamFrom(request, reply, responseId, -1);
    if (body.background !== true) {
      // Wait for the first execution (also when this request is a retry of one still running).
      await events.untilTerminal(responseId);
    }
    return responseSnapshot(store, (await store.getResponseIncludingHidden(principalId, responseId))!);
  });

  app.get<ResponseParams & { Querystring: { stream?: string; starting_after?: string } }>(
    '/v1/responses/:response_id',
    async (request, reply) => {
      const stored = await lookup(services.principalOf(request), request.params.response_id);
      if (request.query.stream !== 'true') return responseSnapshot(store, stored);
      const raw = request.headers['last-event-id'] ?? request.query.starting_after;
      const after = raw === undefined ? -1 : Number(raw);
      if (!Number.isInteger(after) || after < -1)
        throw invalidInput('Last-Event-ID must be the sequence number of an event.', 'Last-Event-ID');
      return streamFrom(request, reply, stored.id, after);
    },
  );

  app.get<ResponseParams>('/v1/responses/:response_id/input_items', async (request) => {
    const stored = await lookup(services.principalOf(request), request.params.response_id);
    return { object: 'list', data: stored.input };
  });

  // Deleting hides the stored response; it never cancels a running task (the specification says so).
  app.delete<ResponseParams>('/v1/responses/:response_id', async (request) => {
    const principalId = services.principalOf(request);
    const stored = await lookup(principalId, request.params.response_id);
    await store.hideResponse(principalId, stored.id);
    return { id: stored.id, object: 'response.deleted', deleted: true };
  });

  app.post<ResponseParams>('/v1/responses/:response_id/cancel', async (request): Promise<UhpResponse> => {
    const principalId = services.principalOf(request);
    const stored = await lookup(principalId, request.params.response_id);
    await runner.cancel(stored.id);
    return responseSnapshot(store, (await store.getResponseIncludingHidden(principalId, stored.id))!);
  });
}
