import net from 'node:net';
import { defineEngineKind, ModelCatalog } from '@arbiter/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, SUPPORT_TICKET } from '../support/decision-test-app.js';

/** An engine that never answers on its own: it reports when its signal aborts, and why. */
function waitingEngine(started: () => void, aborted: (reason: unknown) => void) {
  return defineEngineKind({
    configSchema: z.object({ kind: z.literal('waiting') }),
    create: () => ({
      specificationVersion: 'v1',
      engineId: 'waiting',
      evaluate: ({ signal }) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => {
            aborted(signal.reason);
            reject(signal.reason);
          });
          started();
        }),
    }),
  });
}

function rawRequest(port: number, body: string, authorization: string): net.Socket {
  const socket = net.connect(port, '127.0.0.1');
  socket.write(
    `POST /v1/decision HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
      `authorization: ${authorization}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return socket;
}

describe('a client that goes away', () => {
  it("aborts the engine's work when the connection closes before the answer", async () => {
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    let markAborted!: (reason: unknown) => void;
    const aborted = new Promise<unknown>((resolve) => {
      markAborted = resolve;
    });
    const catalog = new ModelCatalog({
      analysers: [],
      engineKinds: { waiting: waitingEngine(markStarted, markAborted) },
      config: {
        models: [{ name: 'waiting-1.0.0', release_date: '2026-01-01', engine: { kind: 'waiting' } }],
      },
    });
    const subject = await buildTestApp({ catalog });
    try {
      await subject.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = subject.app.server.address() as net.AddressInfo;
      const body = JSON.stringify({ ...SUPPORT_TICKET, model: 'waiting-latest' });
      const socket = rawRequest(port, body, subject.authorization.authorization);
      await started;
      socket.destroy();
      const reason = await aborted;
      expect(reason).toBeInstanceOf(Error);
      expect((reason as Error).message).toBe('the client closed the connection');
    } finally {
      await subject.close();
    }
  });

  it('answers request after request on one keep-alive connection (fetch reuses it)', async () => {
    const subject = await buildTestApp();
    try {
      await subject.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = subject.app.server.address() as net.AddressInfo;
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        const response = await fetch(`http://127.0.0.1:${port}/v1/decision`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...subject.authorization },
          body: JSON.stringify(SUPPORT_TICKET),
        });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      expect(statuses).toEqual([200, 200, 200]);
    } finally {
      await subject.close();
    }
  });
});
