import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * `GET /v1/harnesses/{id}/events`: a live feed of every event of the caller's sessions on one harness.
 * The feed numbers its own events from 0 and names each one's response and original sequence number.
 */
export function openHarnessFeed(
  request: FastifyRequest,
  reply: FastifyReply,
  app: FastifyInstance,
  principalId: string,
  harnessId: string,
): void {
  const writer = app.uhpStreams.open(request, reply);
  let sequence = 0;
  // The event log is the buffer: a consumer that falls behind costs a reference per event, not the
  // event, and one that falls `maxPendingEvents` behind (or takes nothing for the stall timeout) is
  // dropped. It can still read every response's events by id.
  const pending: { responseId: string; sessionId: string; sequence: number }[] = [];
  let pumping = false;
  const pump = async () => {
    if (pumping) return;
    pumping = true;
    try {
      while (pending.length > 0 && !writer.disconnected.aborted) {
        const next = pending.shift()!;
        const event = await app.uhpStore.eventAt(next.responseId, next.sequence);
        // Gone with its session since it was appended: nothing to deliver.
        if (!event) continue;
        await writer.send({
          ...event,
          sequence_number: sequence++,
          response_id: next.responseId,
          session_id: next.sessionId,
          response_sequence_number: event.sequence_number,
        });
      }
    } finally {
      pumping = false;
    }
  };
  const stop = app.uhpEvents.onAppend(({ responseId, owner, sequence }) => {
    if (owner.principalId !== principalId || owner.harnessId !== harnessId) return;
    if (pending.length >= app.uhpStreams.limits.maxPendingEvents) {
      writer.drop('too_far_behind');
      return;
    }
    pending.push({ responseId, sessionId: owner.sessionId, sequence });
    void pump();
  });
  writer.disconnected.addEventListener('abort', () => {
    stop();
    pending.length = 0;
    writer.end();
  });
}
