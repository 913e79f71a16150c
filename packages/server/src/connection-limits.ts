import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

/** How long a connection may take to deliver a request; see docs/configuration.md (`limits`). */
export interface ConnectionLimits {
  /** From the first byte of a request to its last body byte; a slower request gets 408 and is closed. */
  readonly requestTimeoutMs: number;
  /** From a connection's first byte (or the end of its previous request) to the end of the headers. */
  readonly headersTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open between requests. */
  readonly keepAliveTimeoutMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
};

/**
 * The Node/Fastify server options that enforce the limits. Node checks request and header deadlines
 * on an interval (30 s by default, which would let a slow request live half a minute past its
 * deadline); the interval here is a fraction of the shortest deadline. A socket inactivity timeout is
 * not set: a blocking `POST /v1/responses` waits silently for as long as its task runs.
 */
export function connectionServerOptions(limits: ConnectionLimits): Partial<FastifyServerOptions> {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
  } as Partial<FastifyServerOptions>;
}

/**
 * Ends the connections that never sent a request when the server closes, and refuses new ones from
 * then on. Node's `close()` waits for such a connection for ever: `closeIdleConnections` (Fastify's
 * `forceCloseConnections: 'idle'`) does not count it as idle, and closing stops the header-timeout
 * checks that would otherwise end it — so a client's spare connection (a browser's preconnect, an
 * HTTP client pool's) held shutdown until the client dropped it. A connection with a request in
 * flight is left to finish; one between requests is idle, and Node closes it.
 */
export function endUnusedConnectionsOnClose(app: FastifyInstance): void {
  const unused = new Set<Socket>();
  let closing = false;
  app.server.on('connection', (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  app.server.on('request', (request: IncomingMessage) => unused.delete(request.socket));
  app.addHook('preClose', (done) => {
    closing = true;
    for (const socket of unused) socket.destroy();
    done();
  });
}
