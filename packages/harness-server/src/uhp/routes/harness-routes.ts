import { harnessCreateSchema, harnessUpdateSchema } from '@arbiter/uhp/wire';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../uhp-error.js';
import type { UhpServices } from '../uhp-services.js';
import { openHarnessFeed } from './harness-feed.js';
import { parseBody } from './parse-body.js';

/** Harnesses (list, read, full-class CRUD, skills files, live events) and the model catalog. */
export function registerHarnessRoutes(app: FastifyInstance, services: UhpServices): void {
  const { harnesses } = services;
  type HarnessParams = { Params: { harness_id: string } };

  app.get('/v1/harnesses', async (request) => ({
    harnesses: await harnesses.list(services.principalOf(request)),
  }));

  app.post('/v1/harnesses', async (request) =>
    harnesses.create(services.principalOf(request), parseBody(harnessCreateSchema, request.body)),
  );

  app.get<HarnessParams>('/v1/harnesses/:harness_id', async (request) =>
    harnesses.get(services.principalOf(request), request.params.harness_id),
  );

  app.put<HarnessParams>('/v1/harnesses/:harness_id', async (request) =>
    harnesses.replace(
      services.principalOf(request),
      request.params.harness_id,
      parseBody(harnessUpdateSchema, request.body),
    ),
  );

  app.delete<HarnessParams>('/v1/harnesses/:harness_id', async (request) => {
    await harnesses.delete(services.principalOf(request), request.params.harness_id);
    return { id: request.params.harness_id, object: 'harness.deleted', deleted: true };
  });

  app.get<{ Params: { harness_id: string; skill_name: string } }>(
    '/v1/harnesses/:harness_id/skills/:skill_name/files',
    async (request) => {
      const harness = await harnesses.get(services.principalOf(request), request.params.harness_id);
      const skill = (harness.skills ?? []).find((entry) => entry.name === request.params.skill_name);
      if (!skill) throw notFound('arbiter_skill_not_found', 'skill');
      return { object: 'list', skill: skill.name, files: skill.files ?? [] };
    },
  );

  app.get<HarnessParams>('/v1/harnesses/:harness_id/models', async (request) => {
    const harness = await harnesses.get(services.principalOf(request), request.params.harness_id);
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

  app.get<HarnessParams>('/v1/harnesses/:harness_id/events', async (request, reply) => {
    const principalId = services.principalOf(request);
    const harness = await harnesses.get(principalId, request.params.harness_id);
    openHarnessFeed(request, reply, services, principalId, harness.id);
  });

  app.get('/v1/models', async () => {
    const backends: Record<string, { default: string; models: unknown[] }> = {};
    for (const base of harnesses.supportedBases()) {
      const runtime = harnesses.runtimeFor(base)!;
      const entry = backends[runtime.backend] ?? { default: runtime.defaultModel, models: [] };
      backends[runtime.backend] = entry;
      for (const model of runtime.models()) {
        if (entry.models.some((known) => (known as { id: string }).id === model.id)) continue;
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
}
