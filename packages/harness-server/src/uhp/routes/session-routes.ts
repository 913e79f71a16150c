import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import {
  fileListSchema,
  sessionListSchema,
  sessionSchema,
  sessionShareSchema,
  sessionTurnsSchema,
} from '@arbiter/uhp/wire';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isObjectId } from '../object-id.js';
import type { StoredSession } from '../storage/uhp-store.js';
import { invalidInput, notFound } from '../uhp-error.js';
import { FS_BATCH } from '../workspace/directory-handle.js';
import { Workspace } from '../workspace/workspace.js';
import { baseUrlOf } from './base-url.js';
import { presentFile } from './present-file.js';
import { sessionArchive } from './session-archive.js';
import { sessionTurns } from './session-turns.js';
import {
  BEARER,
  deletedSchema,
  errorAnswers,
  fileBytesContent,
  integerQuery,
  sessionParams,
} from './uhp-route-schemas.js';

const tags = ['uhp: sessions'];

/** The session object with the members Arbiter adds to the specification's. */
const arbiterSessionSchema = sessionSchema.extend({
  container_id: z.string(),
  turn_count: z.number().int(),
  last_response_id: z.string().nullable(),
});

const shareSchema = sessionShareSchema.extend({
  object: z.literal('session.share'),
  read_only: z.literal(true),
  created_at: z.number().int(),
});

/** A route on one session: `operationId`, summary and answer, with the session id parameter. */
const onSession = <Response extends Record<number, unknown>>(
  operationId: string,
  summary: string,
  response: Response,
) => ({
  schema: { operationId, summary, tags, security: BEARER, params: sessionParams, response },
});

const toSeconds = (ms: number) => Math.floor(ms / 1000);

/** The largest page of `GET /v1/sessions/{id}/files?limit=`. */
export const SESSION_FILES_PAGE_MAX = 1000;

interface Cursor {
  createdAt: number;
  id: string;
}

function encodeCursor(session: StoredSession): string {
  return Buffer.from(JSON.stringify({ createdAt: session.createdAt, id: session.id })).toString('base64url');
}

function decodeCursor(raw: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    if (Number.isInteger(value.createdAt) && typeof value.id === 'string') return value;
  } catch {
    // Fall through to the refusal below.
  }
  throw invalidInput('cursor is not one this server issued.', 'cursor');
}

/** Sessions: listing, inspection, turns, cancel, deletion, files and archive, sharing. */
export const sessionRoutes = fastifyPlugin(
  async (fastify: FastifyInstance) => {
    const { uhpStore: store, uhpRunner: runner, uhpLayout: layout } = fastify;

    const app = fastify.withTypeProvider<ZodTypeProvider>();
    /** What the session routes read of a request: its principal and the session id of its path. */
    type SessionRequest = Pick<FastifyRequest, 'principal'> & { params: { session_id: string } };

    const lookup = async (request: SessionRequest) => {
      const principalId = request.principal!.id;
      const id = request.params.session_id;
      const session = isObjectId(id, 'hsess') ? await store.getSession(principalId, id) : undefined;
      if (!session) throw notFound('session_not_found', 'session');
      return session;
    };

    const present = async (session: StoredSession) => {
      const running = await store.runningResponseOfSession(session.id);
      const turns = await store.sessionResponses(session.id);
      return {
        id: session.id,
        object: 'session' as const,
        harness_id: session.harnessId,
        container_id: session.containerId,
        title: session.title,
        status: running ? 'running' : 'idle',
        turn_count: turns.length,
        last_response_id: turns.at(-1)?.id ?? null,
        created_at: toSeconds(session.createdAt),
        updated_at: toSeconds(session.updatedAt),
      };
    };

    /**
     * Where a page of sessions starts: after a `cursor` this server issued, or after the caller's own
     * session named by `after` (its creation time and id are the same cursor). Another principal's
     * session id is unknown here, as everywhere.
     */
    const listStart = async (
      principalId: string,
      query: { cursor?: string | undefined; after?: string | undefined },
    ): Promise<Cursor | undefined> => {
      if (query.cursor !== undefined && query.after !== undefined)
        throw invalidInput('cursor and after both say where a page starts; give one of them.', 'after');
      if (query.after !== undefined) {
        const session = await store.getSession(principalId, query.after);
        if (!session) throw invalidInput('after names none of your sessions.', 'after');
        return { createdAt: session.createdAt, id: session.id };
      }
      return query.cursor ? decodeCursor(query.cursor) : undefined;
    };

    app.get(
      '/v1/sessions',
      {
        schema: {
          operationId: 'uhpListSessions',
          summary: 'List your sessions, newest first, a cursor page at a time',
          tags,
          security: BEARER,
          querystring: z.object({
            limit: integerQuery(1, 100).describe('Sessions per page; default 20'),
            cursor: z.string().optional().describe('`next_cursor` of the previous page'),
            after: z
              .string()
              .optional()
              .describe(
                'A session id: the sessions listed after it (older), as `cursor` would; not with `cursor`',
              ),
            harness: z.string().optional().describe('Only the sessions of this harness'),
          }),
          response: {
            200: sessionListSchema
              .extend({ sessions: z.array(arbiterSessionSchema) })
              .describe('A page of sessions; `next_cursor` is null on the last'),
            ...errorAnswers([]),
          },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 20;
        const after = await listStart(request.principal!.id, request.query);
        // One extra row tells whether another page exists, so the last page says so explicitly.
        const rows = await store.listSessions(request.principal!.id, {
          limit: limit + 1,
          ...(after ? { after } : {}),
          ...(request.query.harness ? { harnessId: request.query.harness } : {}),
        });
        const page = rows.slice(0, limit);
        return {
          object: 'list' as const,
          sessions: await Promise.all(page.map(present)),
          next_cursor: rows.length > limit && page.length > 0 ? encodeCursor(page.at(-1)!) : null,
        };
      },
    );

    app.get(
      '/v1/sessions/:session_id',
      onSession('uhpGetSession', 'Read a session: status, turn count, last response', {
        200: arbiterSessionSchema.describe('The session'),
        ...errorAnswers([404]),
      }),
      async (request) => present(await lookup(request)),
    );

    const turnsRoute = onSession('uhpListSessionTurns', 'The turns of a session, oldest first', {
      200: sessionTurnsSchema
        .extend({ object: z.literal('list'), session_id: z.string() })
        .describe('The turns'),
      ...errorAnswers([404]),
    });
    app.get('/v1/sessions/:session_id/turns', turnsRoute, async (request) => {
      const session = await lookup(request);
      return {
        object: 'list' as const,
        session_id: session.id,
        turns: await sessionTurns(store, session.id),
      };
    });

    const cancelRoute = onSession('uhpCancelSession', 'Cancel the task running in a session', {
      200: arbiterSessionSchema.describe('The session, idle once its task has stopped'),
      ...errorAnswers([404]),
    });
    app.post('/v1/sessions/:session_id/cancel', cancelRoute, async (request) => {
      const session = await lookup(request);
      await runner.cancelSession(session.id);
      return present(session);
    });

    const deleteSession = async (request: SessionRequest) => {
      const session = await lookup(request);
      // Stop in-flight work first, so no task keeps writing into storage that no longer has an owner.
      await runner.cancelSession(session.id, 10_000);
      const blobs = (await store.sessionFiles(session.id)).map((file) => file.id);
      await store.deleteSession(session.principalId, session.id);
      // Thousands of blobs and workspace files are removed on the thread pool, a batch at a time, so
      // other tenants' requests are served meanwhile.
      for (let start = 0; start < blobs.length; start += FS_BATCH)
        await Promise.all(
          blobs
            .slice(start, start + FS_BATCH)
            .map((id) => fs.promises.rm(layout.fileBlob(id), { force: true })),
        );
      // The workspace holds what the agent left (links, FIFOs): removed without following any of it.
      await Workspace.remove(layout.workspaceDir(session.id));
      await fs.promises.rm(layout.sessionDir(session.id), { recursive: true, force: true });
      return { id: session.id, object: 'session.deleted', deleted: true } as const;
    };
    const deleted = {
      200: deletedSchema('session.deleted').describe('The session and everything of it are deleted'),
      ...errorAnswers([404]),
    };
    app.delete(
      '/v1/sessions/:session_id',
      onSession('uhpDeleteSession', 'Delete a session: cancels its work, removes everything of it', deleted),
      deleteSession,
    );
    app.delete(
      '/v1/traces/:session_id',
      onSession('uhpDeleteTrace', 'Delete a session (the specification’s trace alias)', deleted),
      deleteSession,
    );

    const filesRoute = {
      schema: {
        ...onSession(
          'uhpListSessionFiles',
          'Every artifact of a session, earlier tasks included; a page at a time with `limit`',
          {
            200: fileListSchema
              .extend({ object: z.literal('list'), next_cursor: z.string().nullable() })
              .describe(
                'The artifacts in the order they were stored; `next_cursor` is null on the last page',
              ),
            ...errorAnswers([404]),
          },
        ).schema,
        querystring: z.object({
          limit: integerQuery(1, SESSION_FILES_PAGE_MAX).describe(
            `Artifacts per page (Arbiter's addition); without it, every artifact of the session`,
          ),
          cursor: z.string().optional().describe('`next_cursor` of the previous page'),
        }),
      },
    };
    app.get('/v1/sessions/:session_id/files', filesRoute, async (request) => {
      const session = await lookup(request);
      const { limit, cursor } = request.query;
      if (cursor !== undefined && limit === undefined)
        throw invalidInput('cursor pages through a listing asked with limit; give limit too.', 'cursor');
      if (limit === undefined)
        return {
          object: 'list' as const,
          files: (await store.sessionFiles(session.id)).map(presentFile),
          next_cursor: null,
        };
      if (cursor !== undefined && !isObjectId(cursor, 'file'))
        throw invalidInput('cursor is not one this server issued.', 'cursor');
      // One extra row tells whether another page exists.
      const rows = await store.sessionFilesPage(session.id, limit + 1, cursor ?? null);
      if (!rows) throw invalidInput('cursor is not one this server issued.', 'cursor');
      const page = rows.slice(0, limit);
      return {
        object: 'list' as const,
        files: page.map(presentFile),
        next_cursor: rows.length > limit && page.length > 0 ? page.at(-1)!.id : null,
      };
    });

    const archiveRoute = onSession('uhpSessionArchive', 'A zip of every artifact of a session', {
      200: {
        description: 'Each artifact under `<file_id>/<name>`',
        content: fileBytesContent('application/zip', 'A zip archive'),
      },
      ...errorAnswers([404]),
    });
    app.get('/v1/sessions/:session_id/files/archive', archiveRoute, async (request, reply) => {
      const session = await lookup(request);
      const archive = await sessionArchive(await store.sessionFiles(session.id), (id) => layout.fileBlob(id));
      reply.raw.once('close', archive.dispose);
      reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${session.id}.zip"`)
        .header('x-content-type-options', 'nosniff');
      return reply.send(archive.stream);
    });

    const presentShare = (
      request: FastifyRequest,
      session: StoredSession,
      share: { token: string; createdAt: number },
    ) => ({
      object: 'session.share' as const,
      session_id: session.id,
      token: share.token,
      url: `${baseUrlOf(request)}/v1/shared/${share.token}`,
      read_only: true as const,
      created_at: toSeconds(share.createdAt),
    });

    const shareAnswer = { 200: shareSchema.describe('The share'), ...errorAnswers([404]) };
    const shareRoute = onSession(
      'uhpShareSession',
      'Share a session read-only (the same token until revoked)',
      shareAnswer,
    );
    app.post('/v1/sessions/:session_id/share', shareRoute, async (request) => {
      const session = await lookup(request);
      const share = await store.upsertShare(
        session.principalId,
        session.id,
        randomBytes(24).toString('base64url'),
      );
      return presentShare(request, session, share);
    });

    app.get(
      '/v1/sessions/:session_id/share',
      onSession('uhpGetShare', 'Read the share of a session', shareAnswer),
      async (request) => {
        const session = await lookup(request);
        const share = await store.getShare(session.id);
        if (!share) throw notFound('arbiter_share_not_found', 'share for that session');
        return presentShare(request, session, share);
      },
    );

    const revokeRoute = onSession('uhpRevokeShare', 'Revoke the share of a session', {
      200: z
        .object({ object: z.literal('session.share'), session_id: z.string(), revoked: z.literal(true) })
        .describe('The share is revoked'),
      ...errorAnswers([404]),
    });
    app.delete('/v1/sessions/:session_id/share', revokeRoute, async (request) => {
      const session = await lookup(request);
      if (!(await store.deleteShare(session.id)))
        throw notFound('arbiter_share_not_found', 'share for that session');
      return { object: 'session.share', session_id: session.id, revoked: true } as const;
    });
  },
  {
    name: 'arbiter-uhp-session-routes',
    fastify: '5.x',
    decorators: { fastify: ['uhpStore', 'uhpRunner', 'uhpLayout'] },
  },
);
