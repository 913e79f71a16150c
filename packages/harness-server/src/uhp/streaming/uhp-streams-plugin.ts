import type { FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { replyHeaders } from '../routes/reply-headers.js';
import type { UhpStreams } from '../uhp-services.js';
import { DEFAULT_STREAM_LIMITS, KEEP_ALIVE_MS, SseWriter, type StreamLimits } from './sse-writer.js';

/** Default interval at which open streams re-check their credential. */
export const CREDENTIAL_CHECK_MS = 1000;

export interface UhpStreamsOptions {
  readonly keepAliveMs?: number | undefined;
  /** How often open streams re-check their credential (a revoked key closes them); default 1 s. */
  readonly credentialCheckMs?: number | undefined;
  readonly streamLimits?: Partial<StreamLimits> | undefined;
}

/**
 * Every UHP event stream opens through `app.uhpStreams.open`, so none can be opened without the
 * guards: keep-alives, back-pressure (a client that stops reading is dropped), the credential
 * re-check through the app's authenticator that closes a stream whose key was revoked, and the
 * end of every open stream at shutdown (after running tasks ended, so each got its terminal event).
 */
export const uhpStreamsPlugin = fastifyPlugin<UhpStreamsOptions>(
  async (app, options) => {
    const keepAliveMs = options.keepAliveMs ?? KEEP_ALIVE_MS;
    const limits = { ...DEFAULT_STREAM_LIMITS, ...options.streamLimits };
    const openStreams = new Set<SseWriter>();

    /** Re-checks the credential a request came with (null under `--no-auth`), for long-lived streams. */
    const credentialCheckOf = (request: FastifyRequest) => {
      const principal = request.principal;
      const authenticator = app.authenticator;
      if (principal === null || authenticator.mode === 'none') return null;
      // The header the stream was opened with, asked again: a revoked key no longer maps to its principal.
      const authorization = request.headers.authorization;
      return () => {
        const result = authenticator.authenticate(authorization);
        return result.ok && result.principal.id === principal.id;
      };
    };

    const streams: UhpStreams = {
      limits,
      open(request, reply) {
        reply.hijack();
        return new SseWriter(
          reply.raw,
          replyHeaders(reply),
          keepAliveMs,
          openStreams,
          limits,
          credentialCheckOf(request),
        );
      },
    };
    app.decorate('uhpStreams', streams);

    // Streams outlive the request that authenticated them: each one's credential is checked again on
    // this interval, and a stream whose key was revoked is closed.
    const credentialSweep = setInterval(() => {
      for (const stream of openStreams) void stream.recheckCredential();
    }, options.credentialCheckMs ?? CREDENTIAL_CHECK_MS);
    credentialSweep.unref();
    app.addHook('onClose', async () => clearInterval(credentialSweep));
    app.addHook('preClose', async () => {
      for (const stream of [...openStreams]) stream.end();
    });
  },
  {
    name: 'arbiter-uhp-streams',
    fastify: '5.x',
    // After the tasks plugin, so its preClose (ending running tasks) runs before this one's.
    dependencies: ['arbiter-auth', 'arbiter-uhp-tasks'],
    decorators: { fastify: ['authenticator'] },
  },
);
