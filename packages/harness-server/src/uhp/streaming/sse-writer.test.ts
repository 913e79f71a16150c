import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SseWriter } from './sse-writer.js';

/**
 * A response whose client takes `bytesPerTake` every `everyMs` (or nothing when `everyMs` is null):
 * a Node Writable with a small buffer, plus the two header methods SseWriter calls. Loopback
 * sockets absorb megabytes in the kernel, so the pace of a client is set here, not by a network.
 */
function pacedResponse(everyMs: number | null, bytesPerTake = 1_024) {
  let taken = 0;
  const pending: { chunk: Buffer; done: () => void }[] = [];
  const timer =
    everyMs === null
      ? null
      : setInterval(() => {
          let budget = bytesPerTake;
          while (budget > 0 && pending.length > 0) {
            const head = pending[0]!;
            const step = Math.min(budget, head.chunk.length);
            head.chunk = head.chunk.subarray(step);
            budget -= step;
            taken += step;
            if (head.chunk.length === 0) {
              pending.shift();
              head.done();
            }
          }
        }, everyMs);
  const response = new Writable({
    highWaterMark: 4_096,
    write(chunk: Buffer, _encoding, done) {
      pending.push({ chunk, done: () => done() });
    },
  }) as Writable & { writeHead: () => void; flushHeaders: () => void };
  response.writeHead = () => undefined;
  response.flushHeaders = () => undefined;
  response.on('close', () => {
    if (timer) clearInterval(timer);
  });
  return { response, taken: () => taken, stop: () => timer && clearInterval(timer) };
}

function writerFor(response: Writable, stallTimeoutMs: number) {
  return new SseWriter(response as never, {}, 60_000, undefined, { maxPendingEvents: 10, stallTimeoutMs });
}

describe('SseWriter', () => {
  it('waits for a slow client that keeps taking bytes, however long one event takes', async () => {
    // 200 KB at 4 KiB per 10 ms takes about 500 ms, several stall timeouts, and each 16 KiB
    // slice about 40 ms of them.
    const client = pacedResponse(10, 4_096);
    const writer = writerFor(client.response, 200);
    await writer.send({ text: 'x'.repeat(200_000) });
    expect(writer.droppedFor).toBeNull();
    // All but the last slice, which waits in the buffer like any small event.
    expect(client.taken()).toBeGreaterThan(200_000 - 16_384);
    writer.end();
    client.stop();
  });

  it('drops a client that takes nothing for the stall timeout', async () => {
    const client = pacedResponse(null);
    const writer = writerFor(client.response, 50);
    await writer.send({ text: 'x'.repeat(40_000) });
    expect(writer.droppedFor).toBe('stalled');
    expect(client.response.destroyed).toBe(true);
    expect(writer.disconnected.aborted).toBe(true);
  });

  it('drops a client that stops taking bytes part way through an event', async () => {
    const client = pacedResponse(10, 4_096);
    const writer = writerFor(client.response, 200);
    setTimeout(() => client.stop(), 100);
    await writer.send({ text: 'x'.repeat(200_000) });
    expect(writer.droppedFor).toBe('stalled');
    expect(client.taken()).toBeGreaterThan(16_384);
    expect(client.taken()).toBeLessThan(200_000);
  });
});
