import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { zodSchemaCompilers } from '../schema-compilers.js';
import { documentingTransform } from './schema-transform.js';

const DOCS_PREFIX = '/docs';
/** Response headers of the reference page passed on to the caller. */
const FORWARDED_HEADERS = ['content-type', 'cache-control', 'etag', 'last-modified', 'location'];

/**
 * The OpenAPI document generated from the routes' zod schemas (`GET /openapi.json`) and the
 * rendered API reference (`GET /docs`). Registered before the routes so it sees all of them.
 *
 * Both are built on their first request, not at start: `@fastify/swagger` (with the YAML parser it
 * loads) and Scalar's bundled script were about a quarter of the server's start-up
 * (bench/decision-startup.mjs). At start the plugin only records each route's method, URL, schema
 * and config; the document comes from a Fastify instance of its own that declares the same routes
 * with `@fastify/swagger` registered, and `/docs` requests are injected into another.
 */
export const apiReferencePlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { version: string }) => {
    const routes: Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>[] = [];
    app.addHook('onRoute', (route) => {
      // HEAD routes are added again by the documenting instance for its GET routes.
      if (route.method === 'HEAD') return;
      routes.push({ method: route.method, url: route.url, schema: route.schema, config: route.config });
    });

    let documented: Promise<FastifyInstance> | undefined;
    const loadDocumented = async () => {
      const { default: swagger } = await import('@fastify/swagger');
      const documenting = Fastify({ logger: false, schemaController: zodSchemaCompilers });
      await documenting.register(swagger, {
        openapi: {
          openapi: '3.1.0',
          info: {
            title: 'Arbiter API',
            version: options.version,
            description:
              'The Decision API: typed decisions about a state, Noul, Choice and Score questions in, typed answers with probabilities out, wire-compatible with the System One API. The UHP 2026-08-11 harness API under `/api/harness` (tags `uhp: …`), with its own error envelope. And the operator’s key administration.',
          },
          components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
        },
        transform: documentingTransform,
      });
      documenting.after(() => {
        for (const route of routes) documenting.route({ ...route, handler: notServedHere });
      });
      await documenting.ready();
      return documenting;
    };
    const openApiDocument = async () => {
      documented ??= loadDocumented();
      return (await documented).swagger();
    };
    app.get('/openapi.json', { schema: { hide: true } }, openApiDocument);

    let reference: Promise<FastifyInstance> | undefined;
    const loadReference = async () => {
      const [{ default: scalarApiReference }, document] = await Promise.all([
        import('@scalar/fastify-api-reference'),
        openApiDocument(),
      ]);
      const docs = Fastify({ logger: false });
      await docs.register(scalarApiReference, {
        routePrefix: DOCS_PREFIX,
        configuration: { title: 'Arbiter API reference', content: () => document },
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
      if (documented) await (await documented).close();
    });
  },
  { name: 'arbiter-api-reference' },
);

/** The documenting instance declares routes; it never serves them. */
async function notServedHere(): Promise<never> {
  throw new Error('this instance only documents the routes');
}
