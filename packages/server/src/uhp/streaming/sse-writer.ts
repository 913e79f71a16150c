import { once } from 'node:events';
import type { ServerResponse } from 'node:http';

/** Keep-alive comment interval: well inside the 30 s the specification asks for. */
export const KEEP_ALIVE_MS = 15_000;

/**
 * Writes Server-Sent Events to a raw Node response with back-pressure: when `write()` reports a full
 * buffer the writer waits for 'drain' (or the client leaving) before the next event, so a slow
 * reader costs memory of one event, not of the whole log.
 */
export class SseWriter {
  private closed = false;
  private readonly keepAlive: NodeJS.Timeout;
  /** Aborted when the client disconnects; the task itself keeps running. */
  readonly disconnected: AbortSignal;

  constructor(
    private readonly raw: ServerResponse,
    headers: Record<string, string>,
    keepAliveMs = KEEP_ALIVE_MS,
    /** Open streams of the server, ended together when it shuts down. */
    private readonly registry?: Set<SseWriter>,
  ) {
    registry?.add(this);
    const controller = new AbortController();
    this.disconnected = controller.signal;
    raw.on('close', () => {
      this.closed = true;
      controller.abort();
    });
    raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    raw.flushHeaders();
    this.keepAlive = setInterval(() => {
      if (!this.closed) raw.write(': keep-alive\n\n');
    }, keepAliveMs);
    this.keepAlive.unref();
  }

  async send(data: unknown, id?: number): Promise<void> {
    if (this.closed) return;
    const frame = `${id !== undefined ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
    if (!this.raw.write(frame)) {
      await once(this.raw, 'drain', { signal: this.disconnected }).catch(() => undefined);
    }
  }

  end(): void {
    this.registry?.delete(this);
    clearInterval(this.keepAlive);
    if (!this.closed) this.raw.end();
    this.closed = true;
  }
}
