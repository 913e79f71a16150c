import type { FastifyInstance } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

const healthSchema = z.object({ status: z.literal('ok'), auth: z.enum(['api-key', 'none']) });

/** `GET /health`: liveness for load balancers and scripts; needs no credential. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.setSerializerCompiler(serializerCompiler);
  app.withTypeProvider<ZodTypeProvider>().get(
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
}
