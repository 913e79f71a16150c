import net from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  connectionServerOptions,
  DEFAULT_CONNECTION_LIMITS,
  endUnusedConnectionsOnClose,
} from './connection-limits.js';

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('endUnusedConnectionsOnClose', () => {
  it('a connection that never sent a request does not hold the server open; one mid-request finishes', async () => {
    const app = Fastify({ logger: false, ...connectionServerOptions(DEFAULT_CONNECTION_LIMITS) });
    endUnusedConnectionsOnClose(app);
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived: () => void = () => undefined;
    const slowArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    app.get('/slow', async () => {
      arrived();
      await released;
      return { done: true };
    });
    app.get('/quick', async () => ({ quick: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as net.AddressInfo).port;

    // A spare connection, as a browser's preconnect or a client pool leaves one: it sends nothing.
    const spare = await connect(port);
    const spareClosed = new Promise<void>((resolve) => spare.once('close', () => resolve()));
    // A keep-alive connection between requests, and a request still being answered.
    const idle = await fetch(`http://127.0.0.1:${port}/quick`);
    expect(await idle.json()).toEqual({ quick: true });
    const slow = fetch(`http://127.0.0.1:${port}/slow`);
    await slowArrived;

    // Without the hook Node's close() waits for the spare connection until its client drops it.
    const closed = app.close();
    await spareClosed;
    release();
    expect(await (await slow).json()).toEqual({ done: true });
    await closed;
  });
});
