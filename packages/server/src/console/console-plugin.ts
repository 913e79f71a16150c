import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { ApiError } from '../errors/api-error.js';

export const CONSOLE_PREFIX = '/console';

/**
 * The console's policy: its own scripts, styles and API only. No inline script or style, no
 * framing, no form posts elsewhere, so a value the API returns can never run as code in the page.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Response headers of the static instance passed on to the caller. */
const FORWARDED_HEADERS = [
  'content-type',
  'cache-control',
  'etag',
  'last-modified',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
];
/** Request headers the static instance needs for conditional requests. */
const CONDITIONAL_HEADERS = ['if-none-match', 'if-modified-since'];

export interface ConsolePluginOptions {
  /** The built console (`packages/console/dist`); default: resolved from `@arbiter/console`. */
  readonly root?: string;
}

function defaultRoot(): string {
  const manifest = createRequire(import.meta.url).resolve('@arbiter/console/package.json');
  return path.join(path.dirname(manifest), 'dist');
}

/**
 * `GET /console/…`: the console's static files. Like the API reference, nothing is loaded at start:
 * the first console request resolves the build, imports `@fastify/static` and builds a small
 * Fastify instance that requests are injected into, so a server nobody opens the console on pays
 * two route entries. Hashed assets (`/console/assets/…`) are cached for a year; every other path
 * is a page of the single-page application and answers `index.html`, revalidated on each load.
 */
export const consolePlugin = fastifyPlugin(
  async (app: FastifyInstance, options: ConsolePluginOptions) => {
    let files: Promise<FastifyInstance> | undefined;
    const load = async () => {
      const root = options.root ?? defaultRoot();
      if (!fs.existsSync(path.join(root, 'index.html')))
        throw ApiError.of(
          'not_found',
          'the console is not built in this installation; run `npm run build -w @arbiter/console`',
        );
      const { default: fastifyStatic } = await import('@fastify/static');
      const instance = Fastify({ logger: false });
      await instance.register(fastifyStatic, {
        root: path.join(root, 'assets'),
        prefix: `${CONSOLE_PREFIX}/assets/`,
        index: false,
        cacheControl: false,
        setHeaders: (response, filePath) => {
          const hashed = path.basename(path.dirname(filePath)) === 'assets';
          response.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
      // Every other path is a page of the application (a deep link): the shell, which routes on
      // the client. A missing asset stays a 404, so a stale page never runs HTML as a script.
      const shell = (_request: FastifyRequest, reply: FastifyReply) => reply.sendFile('index.html', root);
      instance.get(`${CONSOLE_PREFIX}/`, shell);
      instance.get(`${CONSOLE_PREFIX}/*`, shell);
      instance.setNotFoundHandler((_request, reply) =>
        reply.code(404).type('text/plain; charset=utf-8').send('not found'),
      );
      await instance.ready();
      return instance;
    };
    const serve = async (request: FastifyRequest, reply: FastifyReply) => {
      const [pathname, query] = request.url.split('?', 2);
      if (pathname === CONSOLE_PREFIX)
        return reply.redirect(`${CONSOLE_PREFIX}/${query ? `?${query}` : ''}`, 301);
      files ??= load();
      let instance: FastifyInstance;
      try {
        instance = await files;
      } catch (error) {
        files = undefined;
        throw error;
      }
      const headers: Record<string, string> = {};
      for (const name of CONDITIONAL_HEADERS) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const response = await instance.inject({ method: request.method, url: request.url, headers });
      for (const name of FORWARDED_HEADERS) {
        const value = response.headers[name];
        if (value !== undefined) reply.header(name, value);
      }
      return reply
        .header('content-security-policy', CONSOLE_CONTENT_SECURITY_POLICY)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .code(response.statusCode)
        .send(response.rawPayload);
    };
    app.get(CONSOLE_PREFIX, { schema: { hide: true } }, serve);
    app.get(`${CONSOLE_PREFIX}/*`, { schema: { hide: true } }, serve);
    app.addHook('onClose', async () => {
      if (files) await (await files.catch(() => undefined))?.close();
    });
  },
  { name: 'arbiter-console' },
);
