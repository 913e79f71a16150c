import {
  createResponseRequestSchema,
  type InputItemList,
  inputItemListSchema,
  responseSchema,
  type UhpResponse,
} from '@arbiter/uhp/wire';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isObjectId } from '../object-id.js';
import { responseSnapshot } from '../streaming/response-snapshot.js';
import { invalidInput, notFound } from '../uhp-error.js';
import { baseUrlOf } from './base-url.js';
import {
  BEARER,
  deletedSchema,
  errorAnswers,
  eventStreamContent,
  responseParams,
} from './uhp-route-schemas.js';

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const tags = ['uhp: responses'];

const idempotencyKey = `must be one value of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`;
const createHeadersSchema = z.looseObject({
  'idempotency-key': z
    .string()
    .min(1, idempotencyKey)
    .max(MAX_IDEMPOTENCY_KEY_LENGTH, idempotencyKey)
    .optional()
    .describe('A repeated key returns the first request’s response (per principal, kept 48 h)'),
});

/** A response as JSON, or its events as SSE when the request asked to stream. */
const responseOrStream = {
  description: 'The response (`background`: at once, in progress; otherwise terminal), or its events as SSE',
  content: { 'application/json': { schema: responseSchema }, ...eventStreamContent },
};

/** Tasks: create (blocking, streaming, background), read, resume the stream, input items, delete, cancel. */
export const responseRoutes = fastifyPlugin(
  async (fastify: FastifyInstance) => {
    const {
      uhpStore: store,
      uhpEvents: events,
      uhpRunner: runner,
      uhpTasks: tasks,
      uhpStreams: streams,
    } = fastify;

    const app = fastify.withTypeProvider<ZodTypeProvider>();

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
      const writer = streams.open(request, reply);
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

    const createResponse = {
      bodyLimit,
      schema: {
        operationId: 'uhpCreateResponse',
        summary: 'Run a task: blocking (default), streaming (`stream: true`) or in the background',
        tags,
        security: BEARER,
        headers: createHeadersSchema,
        body: createResponseRequestSchema,
        response: { 200: responseOrStream, ...errorAnswers([404, 409, 413, 422, 429, 503]) },
      },
    };
    app.post('/v1/responses', createResponse, async (request, reply) => {
      const principalId = request.principal!.id;
      const body = request.body;
      const { responseId, replayed } = await tasks.create(principalId, body, {
        idempotencyKey: request.headers['idempotency-key'] ?? null,
        baseUrl: baseUrlOf(request),
      });
      if (replayed) reply.header('idempotent-replayed', 'true');
      if (body.stream === true) return streamFrom(request, reply, responseId, -1);
      if (body.background !== true) {
        // Wait for the first execution (also when this request is a retry of one still running).
        await events.untilTerminal(responseId);
      }
      return responseSnapshot(store, (await store.getResponseIncludingHidden(principalId, responseId))!);
    });

    const readResponse = {
      schema: {
        operationId: 'uhpGetResponse',
        summary: 'Read a response; with `stream=true`, replay its events from the log and follow them',
        tags,
        security: BEARER,
        params: responseParams,
        querystring: z.object({
          stream: z.string().optional().describe('`true` answers with the events as SSE'),
          starting_after: z
            .string()
            .optional()
            .describe('Resume strictly after this `sequence_number` (as `Last-Event-ID`)'),
        }),
        headers: z.looseObject({
          'last-event-id': z.string().optional().describe('Resume strictly after this `sequence_number`'),
        }),
        response: { 200: responseOrStream, ...errorAnswers([404]) },
      },
    };
    app.get('/v1/responses/:response_id', readResponse, async (request, reply) => {
      const stored = await lookup(request.principal!.id, request.params.response_id);
      if (request.query.stream !== 'true') return responseSnapshot(store, stored);
      const raw = request.headers['last-event-id'] ?? request.query.starting_after;
      const after = raw === undefined ? -1 : Number(raw);
      if (!Number.isInteger(after) || after < -1)
        throw invalidInput('Last-Event-ID must be the sequence number of an event.', 'Last-Event-ID');
      return streamFrom(request, reply, stored.id, after);
    });

    const inputItems = {
      schema: {
        operationId: 'uhpListInputItems',
        summary: 'The input of a response as given (inline file data replaced by the file name)',
        tags,
        security: BEARER,
        params: responseParams,
        response: { 200: inputItemListSchema.describe('The input items'), ...errorAnswers([404]) },
      },
    };
    app.get('/v1/responses/:response_id/input_items', inputItems, async (request) => {
      const stored = await lookup(request.principal!.id, request.params.response_id);
      // Stored as the validated request gave it: a list of input items (objects).
      return { object: 'list' as const, data: stored.input as InputItemList['data'] };
    });

    // Deleting hides the stored response; it never cancels a running task (the specification says so).
    const deleteResponse = {
      schema: {
        operationId: 'uhpDeleteResponse',
        summary: 'Hide a response (a running task is not cancelled)',
        tags,
        security: BEARER,
        params: responseParams,
        response: {
          200: deletedSchema('response.deleted').describe('The response is hidden'),
          ...errorAnswers([404]),
        },
      },
    };
    app.delete('/v1/responses/:response_id', deleteResponse, async (request) => {
      const principalId = request.principal!.id;
      const stored = await lookup(principalId, request.params.response_id);
      await store.hideResponse(principalId, stored.id);
      return { id: stored.id, object: 'response.deleted', deleted: true } as const;
    });

    const cancelResponse = {
      schema: {
        operationId: 'uhpCancelResponse',
        summary: 'Cancel a running task; answers within a second with the response',
        tags,
        security: BEARER,
        params: responseParams,
        response: { 200: responseSchema.describe('The response'), ...errorAnswers([404]) },
      },
    };
    app.post('/v1/responses/:response_id/cancel', cancelResponse, async (request): Promise<UhpResponse> => {
      const principalId = request.principal!.id;
      const stored = await lookup(principalId, request.params.response_id);
      await runner.cancel(stored.id);
      return responseSnapshot(store, (await store.getResponseIncludingHidden(principalId, stored.id))!);
    });
  },
  {
    name: 'arbiter-uhp-response-routes',
    fastify: '5.x',
    decorators: { fastify: ['uhpStore', 'uhpEvents', 'uhpRunner', 'uhpTasks', 'uhpStreams'] },
  },
);
