import { type FileObject, fileListSchema } from '../../wire/file.js';
import {
  type Session,
  type SessionList,
  type SessionShare,
  type SessionTurn,
  sessionListSchema,
  sessionSchema,
  sessionShareSchema,
  sessionTurnsSchema,
} from '../../wire/session.js';
import { pathId, type ResourceContext } from '../resource-context.js';

export interface SessionListOptions {
  readonly limit?: number;
  readonly cursor?: string;
  readonly harness?: string;
}

/** `/v1/sessions` (and `/v1/traces` for deletion): chains of tasks sharing a workspace. */
export class Sessions {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /** One page; `next_cursor` is `null` on the last. */
  async list(options: SessionListOptions = {}): Promise<SessionList> {
    await this.#context.require('session_listing', 'listing sessions');
    return this.#context.http.json(
      {
        method: 'GET',
        path: '/v1/sessions',
        query: { limit: options.limit, cursor: options.cursor, harness: options.harness },
        idempotent: true,
      },
      (value) => sessionListSchema.parse(value),
    );
  }

  /** Every session, following cursors until the server says there are no more. */
  async *listAll(options: Omit<SessionListOptions, 'cursor'> = {}): AsyncGenerator<Session> {
    let cursor: string | undefined;
    do {
      const page = await this.list({ ...options, ...(cursor === undefined ? {} : { cursor }) });
      yield* page.sessions;
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  async retrieve(sessionId: string): Promise<Session> {
    await this.#context.require('session_listing', 'reading a session');
    return this.#context.http.json(
      { method: 'GET', path: `/v1/sessions/${pathId(sessionId)}`, idempotent: true },
      (value) => sessionSchema.parse(value),
    );
  }

  /** The ordered task history, each turn naming its response id. */
  async turns(sessionId: string): Promise<SessionTurn[]> {
    await this.#context.require('session_listing', 'reading a session history');
    const body = await this.#context.http.json(
      { method: 'GET', path: `/v1/sessions/${pathId(sessionId)}/turns`, idempotent: true },
      (value) => sessionTurnsSchema.parse(value),
    );
    return body.turns;
  }

  /** Stops whatever is running in the session; the session stays continuable. */
  async cancel(sessionId: string): Promise<unknown> {
    await this.#context.require('cancellation', 'cancelling a session');
    return this.#context.http.json(
      { method: 'POST', path: `/v1/sessions/${pathId(sessionId)}/cancel`, idempotent: true },
      (value) => value,
    );
  }

  /** Every artifact of the session, earlier tasks' included. */
  async files(sessionId: string): Promise<FileObject[]> {
    await this.#context.require('files_output', 'listing session files');
    const body = await this.#context.http.json(
      { method: 'GET', path: `/v1/sessions/${pathId(sessionId)}/files`, idempotent: true },
      (value) => fileListSchema.parse(value),
    );
    return body.files;
  }

  /** All artifacts as one archive; the raw response, for the caller to stream to disk. */
  async archive(sessionId: string): Promise<Response> {
    await this.#context.require('files_output', 'downloading a session archive');
    return this.#context.http.send({
      method: 'GET',
      path: `/v1/sessions/${pathId(sessionId)}/files/archive`,
      headers: { accept: 'application/zip' },
      idempotent: true,
    });
  }

  async share(sessionId: string): Promise<SessionShare> {
    await this.#context.require('session_sharing', 'sharing a session');
    return this.#context.http.json(
      { method: 'POST', path: `/v1/sessions/${pathId(sessionId)}/share`, idempotent: true },
      (value) => sessionShareSchema.parse(value),
    );
  }

  async retrieveShare(sessionId: string): Promise<SessionShare> {
    await this.#context.require('session_sharing', 'reading a session share');
    return this.#context.http.json(
      { method: 'GET', path: `/v1/sessions/${pathId(sessionId)}/share`, idempotent: true },
      (value) => sessionShareSchema.parse(value),
    );
  }

  async revokeShare(sessionId: string): Promise<unknown> {
    await this.#context.require('session_sharing', 'revoking a session share');
    return this.#context.http.json(
      { method: 'DELETE', path: `/v1/sessions/${pathId(sessionId)}/share`, idempotent: true },
      (value) => value,
    );
  }

  /** Cancels in-flight work, then makes the session, its history and artifacts unreachable. */
  delete(sessionId: string): Promise<unknown> {
    return this.#context.http.json(
      { method: 'DELETE', path: `/v1/traces/${pathId(sessionId)}`, idempotent: true },
      (value) => value,
    );
  }
}
