import {
  harnessCreateSchema,
  harnessListSchema,
  harnessModelsSchema,
  harnessSchema,
  harnessUpdateSchema,
  type ModelCatalogBody,
  modelCatalogSchema,
  skillFileListSchema,
} from '@arbiter/uhp/wire';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../uhp-error.js';
import { openHarnessFeed } from './harness-feed.js';
import {
  BEARER,
  deletedSchema,
  errorAnswers,
  eventStreamContent,
  harnessParams,
  skillParams,
} from './uhp-route-schemas.js';

const tags = ['uhp: harnesses'];

/** Harnesses (list, read, full-class CRUD, skills files, live events) and the model catalog. */
export const harnessRoutes = fastifyPlugin(
  async (fastify: FastifyInstance) => {
    const harnesses = fastify.uhpHarnesses;

    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/v1/harnesses',
      {
        schema: {
          operationId: 'uhpListHarnesses',
          summary: 'List your harnesses (a default one is created on first use)',
          tags,
          security: BEARER,
          response: { 200: harnessListSchema.describe('Your harnesses'), ...errorAnswers([]) },
        },
      },
      async (request) => ({
        harnesses: await harnesses.list(request.principal!.id),
      }),
    );

    app.post(
      '/v1/harnesses',
      {
        schema: {
          operationId: 'uhpCreateHarness',
          summary: 'Create a harness',
          tags,
          security: BEARER,
          body: harnessCreateSchema,
          response: { 200: harnessSchema.describe('The new harness'), ...errorAnswers([422, 503]) },
        },
      },
      async (request) => harnesses.create(request.principal!.id, request.body),
    );

    app.get(
      '/v1/harnesses/:harness_id',
      {
        schema: {
          operationId: 'uhpGetHarness',
          summary: 'Read a harness, skills and MCP servers included (secrets redacted)',
          tags,
          security: BEARER,
          params: harnessParams,
          response: { 200: harnessSchema.describe('The harness'), ...errorAnswers([404]) },
        },
      },
      async (request) => harnesses.get(request.principal!.id, request.params.harness_id),
    );

    app.put(
      '/v1/harnesses/:harness_id',
      {
        schema: {
          operationId: 'uhpReplaceHarness',
          summary: 'Replace the mutable configuration of a harness',
          tags,
          security: BEARER,
          params: harnessParams,
          body: harnessUpdateSchema,
          response: { 200: harnessSchema.describe('The harness as replaced'), ...errorAnswers([404, 422]) },
        },
      },
      async (request) => harnesses.replace(request.principal!.id, request.params.harness_id, request.body),
    );

    const harnessDeleted = {
      schema: {
        operationId: 'uhpDeleteHarness',
        summary: 'Delete a harness (its sessions and responses stay)',
        tags,
        security: BEARER,
        params: harnessParams,
        response: {
          200: deletedSchema('harness.deleted').describe('The harness is deleted'),
          ...errorAnswers([404]),
        },
      },
    };
    app.delete('/v1/harnesses/:harness_id', harnessDeleted, async (request) => {
      await harnesses.delete(request.principal!.id, request.params.harness_id);
      return { id: request.params.harness_id, object: 'harness.deleted', deleted: true } as const;
    });

    app.get(
      '/v1/harnesses/:harness_id/skills/:skill_name/files',
      {
        schema: {
          operationId: 'uhpListSkillFiles',
          summary: 'The files of one skill folder, byte-exact',
          tags,
          security: BEARER,
          params: skillParams,
          response: {
            200: skillFileListSchema
              .extend({ object: z.literal('list'), skill: z.string() })
              .describe('The skill’s files'),
            ...errorAnswers([404]),
          },
        },
      },
      async (request) => {
        const harness = await harnesses.get(request.principal!.id, request.params.harness_id);
        const skill = (harness.skills ?? []).find((entry) => entry.name === request.params.skill_name);
        if (!skill) throw notFound('arbiter_skill_not_found', 'skill');
        return { object: 'list' as const, skill: skill.name, files: skill.files ?? [] };
      },
    );

    const harnessModels = {
      schema: {
        operationId: 'uhpListHarnessModels',
        summary: 'The models a harness can run, with its default and fallback',
        tags,
        security: BEARER,
        params: harnessParams,
        response: { 200: harnessModelsSchema.describe('The harness’s models'), ...errorAnswers([404]) },
      },
    };
    app.get('/v1/harnesses/:harness_id/models', harnessModels, async (request) => {
      const harness = await harnesses.get(request.principal!.id, request.params.harness_id);
      const runtime = harnesses.runtimeFor(harness.base);
      const models = (runtime?.models() ?? []).map((model) => ({
        id: model.id,
        label: model.label,
        backend: model.backend,
        available: model.available(),
        default: model.id === harness.defaultModel,
      }));
      return {
        harness_id: harness.id,
        backend: runtime?.backend ?? 'none',
        default: harness.defaultModel ?? runtime?.defaultModel ?? '',
        fallback: runtime?.defaultModel ?? '',
        models,
      };
    });

    const harnessFeed = {
      schema: {
        operationId: 'uhpHarnessEvents',
        summary: 'A live feed of every event of your sessions on a harness',
        tags,
        security: BEARER,
        params: harnessParams,
        response: {
          200: {
            description:
              'Server-sent events; each carries `response_id`, `session_id` and `response_sequence_number` beside the feed’s own `sequence_number`',
            content: eventStreamContent,
          },
          ...errorAnswers([404]),
        },
      },
    };
    app.get('/v1/harnesses/:harness_id/events', harnessFeed, async (request, reply) => {
      const principalId = request.principal!.id;
      const harness = await harnesses.get(principalId, request.params.harness_id);
      openHarnessFeed(request, reply, fastify, principalId, harness.id);
    });

    const modelCatalog = {
      schema: {
        operationId: 'uhpListModels',
        summary: 'The models of every harness base, by backend',
        tags,
        security: BEARER,
        response: { 200: modelCatalogSchema.describe('The model catalog'), ...errorAnswers([]) },
      },
    };
    app.get('/v1/models', modelCatalog, async () => {
      const backends: ModelCatalogBody['backends'] = {};
      for (const base of harnesses.supportedBases()) {
        const runtime = harnesses.runtimeFor(base)!;
        const entry = backends[runtime.backend] ?? { default: runtime.defaultModel, models: [] };
        backends[runtime.backend] = entry;
        for (const model of runtime.models()) {
          if (entry.models.some((known) => known.id === model.id)) continue;
          entry.models.push({
            id: model.id,
            label: model.label,
            backend: model.backend,
            available: model.available(),
            default: model.id === runtime.defaultModel,
          });
        }
      }
      return { backends };
    });
  },
  {
    name: 'arbiter-uhp-harness-routes',
    fastify: '5.x',
    decorators: { fastify: ['uhpHarnesses', 'uhpStore', 'uhpEvents', 'uhpStreams'] },
  },
);
