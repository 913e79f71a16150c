import type { FastifyReply, FastifyRequest } from 'fastify';
import { SseWriter } from '../streaming/sse-writer.js';
import type { UhpServices } from '../uhp-services.js';
import { replyHeaders } from './reply-headers.js';

/**
 * Takes over `reply` as a server-sent event stream with the server's stream limits: keep-alives,
 * back-pressure (a client that stops reading is dropped), the credential re-check that closes the
 * stream when its key is revoked, and registration for shutdown. Every UHP stream opens here, so
 * none can be opened without those guards.
 */
export function openEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  services: UhpServices,
): SseWriter {
  reply.hijack();
  return new SseWriter(
    reply.raw,
    replyHeaders(reply),
    services.keepAliveMs,
    services.openStreams,
    services.streamLimits,
    services.credentialCheckOf(request),
  );
}
