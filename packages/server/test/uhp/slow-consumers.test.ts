import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

const alice = TEST_KEYS.alice;
/**
 * How long one of these tests may take: each moves 16 MiB of events, stored as they go — seconds on
 * one SQLite node, much more through two PostgreSQL nodes and a proxy on a busy two-core machine.
 * A bound for a hang, not a speed claim.
 */
const FIREHOSE_MS = 120_000;
let server: UhpTestServer;
beforeAll(async () => {
  server = await startUhpTestServer({ streamLimits: { maxPendingEvents: 2000, stallTimeoutMs: 300 } });
});
afterAll(() => server.close());

/**
 * A client that sends its request and then never reads: the socket stays paused, so the kernel's
 * buffers fill and every further byte would have to wait in the server's memory.
 */
function silentClient(route: string): Promise<{ socket: net.Socket; received: () => Promise<number> }> {
  const url = new URL(`${server.baseUrl}${route}`);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(
        `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${alice}\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n`,
      );
      resolve({
        socket,
        // Reads whatever was delivered, until the server closes the connection.
        received: () =>
          new Promise((done) => {
            let bytes = 0;
            socket.on('data', (chunk) => {
              bytes += chunk.length;
            });
            socket.on('close', () => done(bytes));
            socket.on('error', () => undefined);
            socket.resume();
          }),
      });
    });
    socket.on('error', reject);
  });
}

/** A client that reads everything as it arrives. */
async function readingClient(route: string) {
  const controller = new AbortController();
  const response = await fetch(`${server.baseUrl}${route}`, {
    headers: { authorization: `Bearer ${alice}` },
    signal: controller.signal,
  });
  let bytes = 0;
  const reading = (async () => {
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    } catch {
      // Aborted by the test once it has what it needs.
    }
  })();
  return { bytes: () => bytes, stop: () => controller.abort(), reading };
}

describe('stream consumers that stop reading are dropped, memory stays bounded', {
  timeout: FIREHOSE_MS,
}, () => {
  it('harness feed: a silent socket is disconnected while a reading one receives everything', async () => {
    const harness = (
      await call(server.baseUrl, '/v1/harnesses', {
        method: 'POST',
        key: alice,
        body: { name: 'firehose', base: 'agent' },
      })
    ).json;
    const route = `/v1/harnesses/${harness.id}/events`;
    const silent = await silentClient(route);
    const reader = await readingClient(route);
    // About 16 MiB of events: far beyond what the kernel's socket buffers can absorb.
    const word = 'x'.repeat(200_000);
    for (let round = 0; round < 20; round++) {
      const done = await call(server.baseUrl, '/v1/responses', {
        method: 'POST',
        key: alice,
        body: { input: `@say ${word}`, metadata: { harness_id: harness.id } },
      });
      expect(done.json.status).toBe('completed');
    }
    const generated = await waitFor(
      () => (reader.bytes() > 15_000_000 ? reader.bytes() : undefined),
      FIREHOSE_MS / 2,
    );
    const silentBytes = await silent.received();
    // The silent client got what the sockets between it and the server held before the server gave
    // up, then the end. One loopback connection holds a few MiB (about 4 of these 16 here). Behind a
    // proxy there are two, and the proxy's side of the node's connection, which it read from eagerly
    // before the client stalled, may have grown its receive buffer to net.ipv4.tcp_rmem's maximum
    // (32 MiB by default): through the pair about 10 MiB arrived. Either way it never got the whole
    // feed, as it would have if the server had kept every event for it.
    expect(silentBytes).toBeLessThan(server.proxied ? generated * 0.8 : generated / 2);
    expect(silent.socket.destroyed).toBe(true);
    reader.stop();
    await reader.reading;
    expect((await call(server.baseUrl, '/v1/uhp')).status).toBe(200);
  });

  it('response stream: a client that stalls longer than the stall timeout is disconnected', async () => {
    const word = 'y'.repeat(400_000);
    const background = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: alice,
      // About 16 MiB: beyond what loopback socket buffers can absorb, however the kernel tunes them.
      body: { input: Array.from({ length: 40 }, () => `@say ${word}`).join('\n'), background: true },
    });
    const silent = await silentClient(`/v1/responses/${background.json.id}?stream=true`);
    const status = await waitFor(async () => {
      const now = await call(server.baseUrl, `/v1/responses/${background.json.id}`, { key: alice });
      return now.json.status === 'in_progress' ? undefined : now.json.status;
    }, FIREHOSE_MS / 2);
    expect(status).toBe('completed');
    const bytes = await silent.received();
    expect(bytes).toBeLessThan(40 * 400_000);
  });
});

async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not met in time');
}
