import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/** Keep-alive comment interval: well inside the 30 s the specification asks for. */
export const KEEP_ALIVE_MS = 15_000;

/** How much one stream consumer may cost the server before it is dropped (docs/uhp-server.md). */
export interface StreamLimits {
  /**
   * Events a harness feed holds for one consumer that has not taken the previous ones yet. They are
   * references into the event log (about 100 bytes each), not the events; past this many the
   * consumer is dropped.
   */
  readonly maxPendingEvents: number;
  /** How long a stream waits for its client to take the next 16 KiB of an event before it drops the client. */
  readonly stallTimeoutMs: number;
}

/**
 * The unit in which a stream waits for its client: a client that takes less than this in
 * `stallTimeoutMs` is stalled. Node's default socket buffer mark, so a slice is one write's worth.
 */
export const WRITE_SLICE_BYTES = 16 * 1024;

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxPendingEvents: 10_000,
  stallTimeoutMs: 60_000,
};

/**
 * Writes Server-Sent Events to a raw Node response with bounded memory: `send` writes one event and
 * waits until the client has taken it before the next, so at most one event waits in the server for
 * a client, and a client that takes less than 16 KiB in `stallTimeoutMs` is dropped (disconnected; it can
 * resume from its last event id). Keep-alive comments are only written to an idle connection.
 */
export class SseWriter {
  private closed = false;
  private readonly keepAlive: NodeJS.Timeout;
  private readonly controller = new AbortController();
  /** Aborted when the client disconnects or is dropped; the task itself keeps running. */
  readonly disconnected: AbortSignal = this.controller.signal;
  /** Why the server dropped this consumer, when it did. */
  droppedFor: 'too_far_behind' | 'stalled' | 'revoked' | null = null;

  constructor(
    private readonly raw: ServerResponse,
    headers: Record<string, string>,
    keepAliveMs = KEEP_ALIVE_MS,
    /** Open streams of the server, ended together when it shuts down. */
    private readonly registry?: Set<SseWriter>,
    private readonly limits: StreamLimits = DEFAULT_STREAM_LIMITS,
    /**
     * Whether the credential that opened the stream is still accepted; a stream whose key was revoked
     * is closed at the next check (`recheckCredential`). Null under `--no-auth`.
     */
    private readonly credentialValid: (() => boolean | Promise<boolean>) | null = null,
  ) {
    registry?.add(this);
    raw.on('close', () => {
      this.closed = true;
      this.release();
    });
    // No `Connection` header of our own: Node answers `close` to a client that asked for it and
    // keeps HTTP/1.1 connections open otherwise. Forcing `keep-alive` told a client (or a proxy's
    // connection pool) that asked to close that the connection stays usable, while Node's parser
    // refuses anything sent on it after that request: the next request got a 400.
    raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    raw.flushHeaders();
    this.keepAlive = setInterval(() => this.keepConnectionAlive(), keepAliveMs);
    this.keepAlive.unref();
  }

  /**
   * Writes one event and waits until the client has taken it (or is gone, or is dropped for
   * stalling). The event goes out in slices of `WRITE_SLICE_BYTES`, each waited for in turn, so
   * a stall is `stallTimeoutMs` in which the client took less than one slice: a slow client that
   * keeps reading is waited for, however large the event. (Node counts a write as pending until
   * all of it reached the kernel, so progress inside one large write cannot be seen.)
   */
  async send(data: unknown, id?: number): Promise<void> {
    if (this.closed) return;
    const event = Buffer.from(`${id !== undefined ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
    for (let offset = 0; offset < event.length && !this.closed; offset += WRITE_SLICE_BYTES) {
      this.raw.write(event.subarray(offset, offset + WRITE_SLICE_BYTES));
      if (this.raw.writableNeedDrain && !(await this.drained())) {
        this.drop('stalled');
        return;
      }
    }
  }

  /** Whether the queued bytes reached the client (or it went away) within the stall timeout. */
  private async drained(): Promise<boolean> {
    const stall = new AbortController();
    const drained = await Promise.race([
      once(this.raw, 'drain', { signal: this.disconnected }).then(
        () => true,
        () => true,
      ),
      sleep(this.limits.stallTimeoutMs, false, { signal: stall.signal, ref: false }).catch(() => true),
    ]);
    stall.abort();
    if (drained) return true;
    // Timers run before I/O callbacks in Node's loop, so after a busy stretch the timer can fire
    // while a completed write waits to be counted: one turn lets it in before judging the client.
    await new Promise((resolve) => setImmediate(resolve));
    return this.closed || !this.raw.writableNeedDrain;
  }

  /** Closes the stream if its credential is no longer accepted (a revoked key). */
  async recheckCredential(): Promise<void> {
    if (this.closed || !this.credentialValid) return;
    let valid: boolean;
    try {
      valid = await this.credentialValid();
    } catch {
      valid = false;
    }
    if (!valid) this.drop('revoked');
  }

  /** Disconnects the consumer now (slow, stalled, or its credential revoked). */
  drop(reason: NonNullable<SseWriter['droppedFor']>): void {
    if (this.closed) return;
    this.droppedFor = reason;
    this.closed = true;
    // Destroy, not end: ending would wait for the very buffer the client is not reading.
    this.raw.destroy();
    this.release();
  }

  end(): void {
    if (!this.closed) this.raw.end();
    this.closed = true;
    this.release();
  }

  private keepConnectionAlive(): void {
    // A connection with bytes still queued is not idle, and a comment would only add to the queue.
    if (!this.closed && this.raw.writableLength === 0) this.raw.write(': keep-alive\n\n');
  }

  private release(): void {
    this.registry?.delete(this);
    clearInterval(this.keepAlive);
    this.controller.abort();
  }
}
