import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

const DOCS_PREFIX = '/docs';
/** Response headers of the reference page passed on to the caller. */
const FORWARDED_HEADERS = ['content-type', 'cache-control', 'etag', 'last-modified', 'location'];

/**
 * The OpenAPI document generated from the routes' zod schemas (`GET /openapi.json`) and the
 * rendered API reference (`GET /docs`). Registered before the routes so it sees all of them.
 *
 * The reference page (Scalar) is loaded on its first request, not at start: importing it and
 * reading its bundled script cost about a fifth of the server's start-up CPU (docs/benchmarks.md).
 * Its routes live in a small Fastify instance of their own that `/docs` requests are injected into.
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

    let reference: Promise<FastifyInstance> | undefined;
    const loadReference = async () => {
      const { default: scalarApiReference } = await import('@scalar/fastify-api-reference');
      const docs = Fastify({ logger: false });
      await docs.register(scalarApiReference, {
        routePrefix: DOCS_PREFIX,
        configuration: { title: 'Arbiter API reference', content: () => app.swagger() },
      });
      await docs.ready();
      return docs;
    };
    const serveReference = async (request: FastifyRequest, reply: FastifyReply) => {
      reference ??= loadReference();
      const docs = await reference;
      const response = await docs.inject({
        method: 'GET',
        url: request.url,
        headers: { accept: request.headers.accept ?? '*/*' },
      });
      for (const name of FORWARDED_HEADERS) {
        const value = response.headers[name];
        if (value !== undefined) reply.header(name, value);
      }
      return reply.code(response.statusCode).send(response.rawPayload);
    };
    app.get(DOCS_PREFIX, { schema: { hide: true } }, serveReference);
    app.get(`${DOCS_PREFIX}/*`, { schema: { hide: true } }, serveReference);
    app.addHook('onClose', async () => {
      if (reference) await (await reference).close();
    });
  },
  { name: 'arbiter-api-reference' },
);
