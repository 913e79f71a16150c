import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type RouteOptions } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { zodSchemaCompilers } from '../schema-compilers.js';
import { documentingTransform } from './schema-transform.js';

const DOCS_PREFIX = '/docs';

/**
 * The reference page's policy. Scripts come from this server only (the page loads Scalar's bundle
 * and a small start script, both served below; there is no inline script), and so does every
 * request the page makes: `connect-src 'self'` stops the renderer reaching its vendor even if a
 * later version of the bundle tries. Styles allow inline because Scalar's components set them at
 * run time; the page shows only the server's own OpenAPI document, never a value a client stored.
 */
export const REFERENCE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Scalar's settings, chosen so the page works with no network beyond this server: no web fonts
 * (they come from the vendor's font host; the page uses the system's fonts), no telemetry, no
 * "Ask AI" agent, no toolbar or developer tools (the "Generate SDKs" and sharing buttons talk to
 * the vendor's cloud). The built-in client still sends "try it" requests, to this server only.
 */
const SCALAR_CONFIGURATION = {
  url: './openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showToolbar: 'never',
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  hideDarkModeToggle: false,
  _integration: null,
} as const;

const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Arbiter API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="./js/scalar.js"></script>
    <script src="./js/reference.js"></script>
  </body>
</html>
`;
const START_SCRIPT = `Scalar.createApiReference('#app', ${JSON.stringify(SCALAR_CONFIGURATION)});\n`;

/**
 * The path of Scalar's self-contained browser bundle inside `@scalar/fastify-api-reference` (the
 * package serves it itself the same way; it is not among the package's exports).
 */
function scalarBundlePath(): string {
  const entry = createRequire(import.meta.url).resolve('@scalar/fastify-api-reference');
  return path.join(path.dirname(entry), 'js', 'standalone.js');
}

interface Asset {
  readonly body: Buffer;
  readonly etag: string;
}

function asset(body: Buffer | string): Asset {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return { body: bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"` };
}

/**
 * The OpenAPI document generated from the routes' zod schemas (`GET /openapi.json`) and the
 * rendered API reference (`GET /docs/`), served entirely by this server: the page, Scalar's
 * bundle (from node_modules), its start script and the document. The page makes no request
 * elsewhere (see SCALAR_CONFIGURATION, and the policy that enforces it in the browser). Registered
 * before the routes so it sees all of them.
 *
 * Both are built on their first request, not at start: `@fastify/swagger` (with the YAML parser it
 * loads) and Scalar's 3.5 MB bundle were about a quarter of the server's start-up
 * (bench/decision-startup.mjs). At start the plugin only records each route's method, URL, schema
 * and config; the document comes from a Fastify instance of its own that declares the same routes
 * with `@fastify/swagger` registered.
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

    const page = asset(REFERENCE_PAGE);
    const start = asset(START_SCRIPT);
    let bundle: Promise<Asset> | undefined;
    const loadBundle = async () => asset(await fs.readFile(scalarBundlePath()));

    /** Sends one of the page's files with the page's headers, revalidated on each load by its ETag. */
    const send = (reply: FastifyReply, ifNoneMatch: string | undefined, file: Asset, type: string) => {
      reply
        .header('content-security-policy', REFERENCE_CONTENT_SECURITY_POLICY)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-cache')
        .header('etag', file.etag);
      if (ifNoneMatch === file.etag) return reply.code(304).send();
      return reply.type(type).send(file.body);
    };

    const hidden = { schema: { hide: true } };
    // The page loads its files by relative URLs, so it must be served at the directory path.
    app.get(DOCS_PREFIX, hidden, (request, reply) => {
      const query = request.url.indexOf('?');
      return reply.redirect(`${DOCS_PREFIX}/${query === -1 ? '' : request.url.slice(query)}`, 301);
    });
    app.get(`${DOCS_PREFIX}/`, hidden, (request, reply) =>
      send(reply, request.headers['if-none-match'], page, 'text/html; charset=utf-8'),
    );
    app.get(`${DOCS_PREFIX}/js/scalar.js`, hidden, async (request, reply) => {
      bundle ??= loadBundle();
      let file: Asset;
      try {
        file = await bundle;
      } catch (error) {
        bundle = undefined;
        throw error;
      }
      return send(reply, request.headers['if-none-match'], file, 'text/javascript; charset=utf-8');
    });
    app.get(`${DOCS_PREFIX}/js/reference.js`, hidden, (request, reply) =>
      send(reply, request.headers['if-none-match'], start, 'text/javascript; charset=utf-8'),
    );
    app.get(`${DOCS_PREFIX}/openapi.json`, hidden, openApiDocument);
    app.addHook('onClose', async () => {
      if (documented) await (await documented).close();
    });
  },
  { name: 'arbiter-api-reference' },
);

/** The documenting instance declares routes; it never serves them. */
async function notServedHere(): Promise<never> {
  throw new Error('this instance only documents the routes');
}
