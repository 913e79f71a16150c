import type { FastifyReply } from 'fastify';
import { SseWriter } from '../streaming/sse-writer.js';
import type { UhpServices } from '../uhp-services.js';
import { replyHeaders } from './reply-headers.js';

/**
 * `GET /v1/harnesses/{id}/events`: a live feed of every event of the caller's sessions on one harness.
 * The feed numbers its own events from 0 and names each one's response and original sequence number.
 */
export function openHarnessFeed(
  reply: FastifyReply,
  services: UhpServices,
  principalId: string,
  harnessId: string,
): void {
  reply.hijack();
  const writer = new SseWriter(reply.raw, replyHeaders(reply), services.keepAliveMs, services.openStreams);
  let sequence = 0;
  let queue = Promise.resolve();
  const stop = services.events.onAppend(({ responseId, owner, event }) => {
    if (owner.principalId !== principalId || owner.harnessId !== harnessId) return;
    const data = {
      ...event,
      sequence_number: sequence++,
      response_id: responseId,
      session_id: owner.sessionId,
      response_sequence_number: event.sequence_number,
    };
    queue = queue.then(() => writer.send(data));
  });
  writer.disconnected.addEventListener('abort', () => {
    stop();
    writer.end();
  });
}
