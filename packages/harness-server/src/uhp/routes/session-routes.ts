import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isObjectId } from '../object-id.js';
import type { StoredSession } from '../storage/uhp-store.js';
import { invalidInput, notFound } from '../uhp-error.js';
import type { UhpServices } from '../uhp-services.js';
import { Workspace } from '../workspace/workspace.js';
import { presentFile } from './present-file.js';
import { sessionArchive } from './session-archive.js';
import { sessionTurns } from './session-turns.js';

const toSeconds = (ms: number) => Math.floor(ms / 1000);

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
export function registerSessionRoutes(app: FastifyInstance, services: UhpServices): void {
  const { store, runner } = services;
  type SessionParams = { Params: { session_id: string } };

  const lookup = async (request: FastifyRequest<SessionParams>) => {
    const principalId = services.principalOf(request);
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
      object: 'session',
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

  app.get<{ Querystring: { limit?: string; cursor?: string; harness?: string } }>(
    '/v1/sessions',
    async (request) => {
      const limit = request.query.limit === undefined ? 20 : Number(request.query.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100)
        throw invalidInput('limit must be an integer from 1 to 100.', 'limit');
      const after = request.query.cursor ? decodeCursor(request.query.cursor) : undefined;
      // One extra row tells whether another page exists, so the last page says so explicitly.
      const rows = await store.listSessions(services.principalOf(request), {
        limit: limit + 1,
        ...(after ? { after } : {}),
        ...(request.query.harness ? { harnessId: request.query.harness } : {}),
      });
      const page = rows.slice(0, limit);
      return {
        object: 'list',
        sessions: await Promise.all(page.map(present)),
        next_cursor: rows.length > limit && page.length > 0 ? encodeCursor(page.at(-1)!) : null,
      };
    },
  );

  app.get<SessionParams>('/v1/sessions/:session_id', async (request) => present(await lookup(request)));

  app.get<SessionParams>('/v1/sessions/:session_id/turns', async (request) => {
    const session = await lookup(request);
    return { object: 'list', session_id: session.id, turns: await sessionTurns(store, session.id) };
  });

  app.post<SessionParams>('/v1/sessions/:session_id/cancel', async (request) => {
    const session = await lookup(request);
    await runner.cancelSession(session.id);
    return present(session);
  });

  const deleteSession = async (request: FastifyRequest<SessionParams>) => {
    const session = await lookup(request);
    // Stop in-flight work first, so no task keeps writing into storage that no longer has an owner.
    await runner.cancelSession(session.id, 10_000);
    const blobs = (await store.sessionFiles(session.id)).map((file) => file.id);
    await store.deleteSession(session.principalId, session.id);
    for (const id of blobs) fs.rmSync(services.layout.fileBlob(id), { force: true });
    // The workspace holds what the agent left (links, FIFOs): removed without following any of it.
    Workspace.remove(services.layout.workspaceDir(session.id));
    fs.rmSync(services.layout.sessionDir(session.id), { recursive: true, force: true });
    return { id: session.id, object: 'session.deleted', deleted: true };
  };
  app.delete<SessionParams>('/v1/sessions/:session_id', deleteSession);
  app.delete<SessionParams>('/v1/traces/:session_id', deleteSession);

  app.get<SessionParams>('/v1/sessions/:session_id/files', async (request) => {
    const session = await lookup(request);
    return { object: 'list', files: (await store.sessionFiles(session.id)).map(presentFile) };
  });

  app.get<SessionParams>('/v1/sessions/:session_id/files/archive', async (request, reply) => {
    const session = await lookup(request);
    const archive = sessionArchive(await store.sessionFiles(session.id), (id) =>
      services.layout.fileBlob(id),
    );
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
    object: 'session.share',
    session_id: session.id,
    token: share.token,
    url: `${services.baseUrlOf(request)}/v1/shared/${share.token}`,
    read_only: true,
    created_at: toSeconds(share.createdAt),
  });

  app.post<SessionParams>('/v1/sessions/:session_id/share', async (request) => {
    const session = await lookup(request);
    const share = await store.upsertShare(
      session.principalId,
      session.id,
      randomBytes(24).toString('base64url'),
    );
    return presentShare(request, session, share);
  });

  app.get<SessionParams>('/v1/sessions/:session_id/share', async (request) => {
    const session = await lookup(request);
    const share = await store.getShare(session.id);
    if (!share) throw notFound('arbiter_share_not_found', 'share for that session');
    return presentShare(request, session, share);
  });

  app.delete<SessionParams>('/v1/sessions/:session_id/share', async (request) => {
    const session = await lookup(request);
    if (!(await store.deleteShare(session.id)))
      throw notFound('arbiter_share_not_found', 'share for that session');
    return { object: 'session.share', session_id: session.id, revoked: true };
  });
}
