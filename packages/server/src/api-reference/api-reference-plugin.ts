import swagger from '@fastify/swagger';
import scalarApiReference from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The OpenAPI document generated from the routes' zod schemas (`GET /openapi.json`) and the
 * rendered API reference (`GET /docs`). Registered before the routes so it sees all of them.
 */
export const apiReferencePlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { version: string }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Arbiter Decision API',
          version: options.version,
          description:
            'Typed decisions about a state: Noul, Choice and Score questions in, typed answers with probabilities out. Wire-compatible with the System One API.',
        },
        components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      },
      transform: jsonSchemaTransform,
    });
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    await app.register(scalarApiReference, {
      routePrefix: '/docs',
      logLevel: 'warn',
      configuration: { title: 'Arbiter API reference' },
    });
  },
  { name: 'arbiter-api-reference' },
);
