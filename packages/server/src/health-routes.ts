import type { FastifyInstance } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

const healthSchema = z.object({ status: z.literal('ok'), auth: z.enum(['api-key', 'none']) });
const livenessSchema = z.object({ status: z.literal('ok') });
const readinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  /** Why the node should not get traffic now: `database` (unreachable) or `shutting_down`. */
  reason: z.enum(['database', 'shutting_down']).optional(),
});

/** A readiness probe gives the database this long to answer `SELECT 1`. */
export const READINESS_TIMEOUT_MS = 2000;

export interface HealthOptions {
  /** Resolves when the database answers; rejects (or outlasts the timeout) when it does not. */
  readonly checkDatabase?: () => Promise<unknown>;
}

/**
 * Probes for load balancers and orchestrators; none needs a credential.
 * - `GET /health` and `GET /healthz`: liveness, the process answers (restart it when not).
 * - `GET /readyz`: readiness, the database answers and the node is not shutting down (send it
 *   traffic only when 200; 503 otherwise, with the reason and nothing of the error itself).
 */
export async function healthRoutes(app: FastifyInstance, options: HealthOptions): Promise<void> {
  app.setSerializerCompiler(serializerCompiler);
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/health',
    {
      schema: {
        operationId: 'health',
        summary: 'Liveness',
        tags: ['health'],
        response: { 200: healthSchema },
      },
    },
    async () => ({ status: 'ok' as const, auth: app.authenticator.mode }),
  );
  routes.get(
    '/healthz',
    {
      schema: {
        operationId: 'healthz',
        summary: 'Liveness (orchestrator form)',
        tags: ['health'],
        response: { 200: livenessSchema },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  routes.get(
    '/readyz',
    {
      schema: {
        operationId: 'readyz',
        summary: 'Readiness: the database answers',
        tags: ['health'],
        response: { 200: readinessSchema, 503: readinessSchema },
      },
    },
    async (request, reply) => {
      if (closing)
        return reply.status(503).send({ status: 'not_ready' as const, reason: 'shutting_down' as const });
      try {
        await withTimeout(options.checkDatabase?.() ?? Promise.resolve(), READINESS_TIMEOUT_MS);
      } catch (error) {
        request.log.warn({ err: error }, 'readiness: the database did not answer');
        return reply.status(503).send({ status: 'not_ready' as const, reason: 'database' as const });
      }
      return { status: 'ready' as const };
    },
  );
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
