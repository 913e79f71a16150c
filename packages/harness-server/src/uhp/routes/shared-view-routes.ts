import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inputTextOf } from '../turn-text.js';
import { notFound } from '../uhp-error.js';
import { sessionTurns } from './session-turns.js';
import { errorAnswers, PUBLIC } from './uhp-route-schemas.js';

const sharedViewSchema = z.object({
  object: z.literal('session.shared_view'),
  title: z.string(),
  read_only: z.literal(true),
  turns: z.array(
    z.object({
      status: z.string(),
      created_at: z.number().int(),
      input_text: z.string(),
      output_text: z.string(),
    }),
  ),
});

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The read-only view behind a share token: titles, inputs' text and final answers only (no harness
 * configuration, credentials, files or ids of other objects). There is no route to continue, cancel
 * or upload through a token, and revoking deletes the token.
 */
export const sharedViewRoutes = fastifyPlugin(
  async (app: FastifyInstance) => {
    const store = app.uhpStore;

    app.withTypeProvider<ZodTypeProvider>().get(
      '/v1/shared/:token',
      {
        schema: {
          operationId: 'uhpSharedView',
          summary: 'The read-only view behind a share token (no credential): HTML, or JSON on request',
          tags: ['uhp: sessions'],
          security: PUBLIC,
          params: z.object({ token: z.string().describe('The token of `POST /v1/sessions/{id}/share`') }),
          response: {
            200: {
              description: 'Each turn’s input text and final answer; JSON with `Accept: application/json`',
              content: {
                'text/html': { schema: z.string() },
                'application/json': { schema: sharedViewSchema },
              },
            },
            ...errorAnswers([404], { authenticated: false }),
          },
        },
      },
      async (request, reply) => {
        const session = /^[A-Za-z0-9_-]{32}$/.test(request.params.token)
          ? await store.sessionOfShareToken(request.params.token)
          : undefined;
        if (!session) throw notFound('arbiter_share_not_found', 'shared session');
        const turns = (await sessionTurns(store, session.id)).map((turn) => ({
          status: turn.status,
          created_at: turn.created_at,
          input_text: inputTextOf(turn.input),
          output_text: turn.output_text,
        }));
        reply
          .header(
            'content-security-policy',
            "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
          )
          .header('x-frame-options', 'DENY')
          .header('x-content-type-options', 'nosniff')
          .header('referrer-policy', 'no-referrer')
          .header('cache-control', 'no-store');
        const view = { object: 'session.shared_view', title: session.title, read_only: true, turns } as const;
        if (request.headers.accept?.includes('application/json')) return view;
        const body = turns
          .map(
            (turn) =>
              `<section><h2>Task</h2><pre>${escapeHtml(turn.input_text)}</pre><h2>Result (${escapeHtml(turn.status)})</h2><pre>${escapeHtml(turn.output_text)}</pre></section>`,
          )
          .join('\n');
        return reply
          .type('text/html; charset=utf-8')
          .send(
            `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(session.title)}</title>` +
              '<style>body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;background:#f5f5f5;padding:.75rem}</style>' +
              `</head><body><h1>${escapeHtml(session.title)}</h1><p>Read-only shared session.</p>${body}</body></html>`,
          );
      },
    );
  },
  { name: 'arbiter-uhp-shared-view-routes', fastify: '5.x', decorators: { fastify: ['uhpStore'] } },
);
