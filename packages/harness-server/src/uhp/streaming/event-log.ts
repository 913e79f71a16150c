import { EventEmitter } from 'node:events';
import { isTerminalEventType, type StreamEvent } from '@arbiter/uhp/wire';
import { yieldToEventLoop } from '../event-loop-slices.js';
import type { UhpStore } from '../storage/uhp-store.js';

/** Who an appended event belongs to, for the live feed of a harness. */
export interface EventOwner {
  readonly principalId: string;
  readonly harnessId: string;
  readonly sessionId: string;
}

/** An event now in the log (read it there: it may have been appended on another node). */
export interface AppendedEvent {
  readonly responseId: string;
  readonly owner: EventOwner;
  readonly sequence: number;
  readonly type: string;
}

/** The channel on which nodes sharing a PostgreSQL database announce appended events. */
export const EVENTS_CHANNEL = 'arbiter_events';

/** What one node tells the others about events it stored (ids only; the events are in the log). */
interface EventNotice {
  /** The node that appended them, which has already woken its own readers. */
  readonly n: string;
  readonly r: string;
  /** The first and last sequence numbers stored in one write, and the last one's type. */
  readonly q: number;
  readonly z: number;
  readonly t: string;
  readonly p: string;
  readonly h: string;
  readonly s: string;
}

/**
 * Events a follower reads from the log at a time: a turn that cites a thousand files has thousands
 * of events, and reading (and parsing) them in one query would hold the event loop for all of them.
 */
export const FOLLOW_PAGE = 256;

export type NewEvent = { readonly type: string } & Record<string, unknown>;

/**
 * The append-only event log of every response, in the database. Streams are fed from it, so they
 * are gapless and replayable from any sequence number; the in-process emitter only wakes readers up.
 *
 * `append` numbers an event and returns it at once, so a runtime's output is emitted in order without
 * waiting for the database; the inserts of one response are written in that order behind it, and a
 * reader is woken only once its event is stored. `flush` waits for them and reports a failed write:
 * a response's terminal state is written only after its events are.
 */
export class EventLog {
  private readonly wakeups = new EventEmitter();
  private readonly nextSequence = new Map<string, number>();
  private readonly writes = new Map<string, Promise<void>>();
  /** Events appended and not yet handed to a write, per response with a writer running. */
  private readonly queued = new Map<string, StreamEvent[]>();
  private readonly failures = new Map<string, unknown>();
  private stopListening: (() => Promise<void>) | null = null;
  /** Told when telling other nodes about an event failed (their readers then find it by polling). */
  onNotifyError: (error: unknown) => void = () => {};

  /**
   * `nodeId` names this process among the nodes sharing a database. With `pollMs`, a reader also
   * looks at the log that often while it waits, so even a lost notification delays it by no more.
   */
  constructor(
    private readonly store: UhpStore,
    private readonly options: { readonly nodeId: string; readonly pollMs?: number | null } = {
      nodeId: 'local',
    },
  ) {
    this.wakeups.setMaxListeners(0);
  }

  /**
   * On PostgreSQL, listens for the events other nodes append, so a stream served here follows a
   * task running elsewhere. Not needed on SQLite, which one process serves.
   */
  async listenAcrossNodes(): Promise<void> {
    if (this.store.db.dialect !== 'postgres' || this.stopListening) return;
    this.stopListening = await this.store.db.listen(EVENTS_CHANNEL, (payload) => {
      if (payload === null) {
        // Notifications may have been lost while the connection was down: every reader re-reads.
        this.wakeups.emit('resync');
        return;
      }
      let notice: EventNotice;
      try {
        notice = JSON.parse(payload) as EventNotice;
      } catch {
        return;
      }
      if (notice.n === this.options.nodeId) return;
      const owner = { principalId: notice.p, harnessId: notice.h, sessionId: notice.s };
      // Only the last event's type is sent: it is the only one that can be terminal.
      for (let sequence = notice.q; sequence < notice.z; sequence++)
        this.emitWake(notice.r, owner, sequence, '');
      this.emitWake(notice.r, owner, notice.z, notice.t);
    });
  }

  async close(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = null;
  }

  /**
   * Writes the first events of a new response inside the transaction that inserts it (so a refused
   * task leaves no events); `announce` them once that transaction has committed.
   */
  async recordInitial(tx: UhpStore, responseId: string, events: readonly NewEvent[]): Promise<StreamEvent[]> {
    const stored = events.map((event, index) => ({ ...event, sequence_number: index }) as StreamEvent);
    await tx.insertEvents(responseId, stored);
    return stored;
  }

  /** Makes committed initial events known: later appends follow them, and readers wake. */
  announce(responseId: string, owner: EventOwner, stored: readonly StreamEvent[]): void {
    this.nextSequence.set(responseId, stored.length);
    if (stored.length > 0) this.wake(responseId, owner, stored);
  }

  /** Loads where the log of a response not appended to by this process ends (recovery, cleanup). */
  async resume(responseId: string): Promise<void> {
    if (this.nextSequence.has(responseId)) return;
    const last = await this.store.lastSequenceNumber(responseId);
    if (!this.nextSequence.has(responseId)) this.nextSequence.set(responseId, last + 1);
  }

  append(responseId: string, owner: EventOwner, event: NewEvent): StreamEvent {
    const sequence = this.nextSequence.get(responseId);
    if (sequence === undefined)
      throw new Error(`the event log of ${responseId} was not opened in this process (resume it first)`);
    const stored = { ...event, sequence_number: sequence } as StreamEvent;
    this.nextSequence.set(responseId, sequence + 1);
    const queue = this.queued.get(responseId);
    // A writer is running for this response: it takes the event in its next write.
    if (queue) queue.push(stored);
    else {
      this.queued.set(responseId, [stored]);
      this.writes.set(responseId, this.drain(responseId, owner));
    }
    return stored;
  }

  /**
   * Writes a response's queued events in order, each write taking every event queued meanwhile (one
   * round trip for many on PostgreSQL), and wakes readers once they are stored. Ends when the queue
   * is empty; the next append starts another.
   */
  private async drain(responseId: string, owner: EventOwner): Promise<void> {
    // Later in this turn, so the events a runtime emits together are written together.
    await Promise.resolve();
    for (;;) {
      const queue = this.queued.get(responseId) ?? [];
      if (queue.length === 0) {
        this.queued.delete(responseId);
        return;
      }
      const batch = queue.splice(0);
      // After a failed write nothing more is written: `flush` reports it and the log is re-read.
      if (this.failures.has(responseId)) continue;
      try {
        await this.store.insertEvents(responseId, batch);
        this.wake(responseId, owner, batch);
      } catch (error) {
        this.failures.set(responseId, error);
      }
    }
  }

  /**
   * Waits until every event appended to the response so far is stored; throws the first write that
   * failed. With `final` (its terminal event was appended), or after a failure, forgets the
   * response's bookkeeping: a later append must `resume` from the log.
   */
  async flush(responseId: string, options: { final?: boolean } = {}): Promise<void> {
    const pending = this.writes.get(responseId);
    if (pending) await pending;
    const failure = this.failures.get(responseId);
    if (options.final || failure !== undefined) {
      if (this.writes.get(responseId) === pending) this.writes.delete(responseId);
      this.failures.delete(responseId);
      // After a failed write the numbering is read again from what the log holds.
      this.nextSequence.delete(responseId);
    }
    if (failure !== undefined) throw failure;
  }

  /** Wakes this node's readers of `events` (stored, in order), and tells the other nodes in one notice. */
  private wake(responseId: string, owner: EventOwner, events: readonly StreamEvent[]): void {
    for (const event of events) this.emitWake(responseId, owner, event.sequence_number, event.type);
    if (this.store.db.dialect !== 'postgres') return;
    const last = events.at(-1) as StreamEvent;
    const notice: EventNotice = {
      n: this.options.nodeId,
      r: responseId,
      q: (events[0] as StreamEvent).sequence_number,
      z: last.sequence_number,
      t: last.type,
      p: owner.principalId,
      h: owner.harnessId,
      s: owner.sessionId,
    };
    // The event is stored; a failed notification only delays other nodes' readers until they poll.
    this.store.db
      .notify(EVENTS_CHANNEL, JSON.stringify(notice))
      .catch((error: unknown) => this.onNotifyError(error));
  }

  private emitWake(responseId: string, owner: EventOwner, sequence: number, type: string): void {
    this.wakeups.emit(responseId);
    if (isTerminalEventType(type)) this.wakeups.emit(`${responseId}:terminal`);
    this.wakeups.emit('*', { responseId, owner, sequence, type } satisfies AppendedEvent);
  }

  /** Resolves when `name` is emitted, the log should be re-read, `pollMs` passes, or `signal` aborts. */
  private wakeup(name: string, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.wakeups.off(name, done);
        this.wakeups.off('resync', done);
        signal?.removeEventListener('abort', done);
        if (timer) clearTimeout(timer);
        resolve();
      };
      this.wakeups.on(name, done);
      this.wakeups.on('resync', done);
      signal?.addEventListener('abort', done, { once: true });
      const timer = this.options.pollMs ? setTimeout(done, this.options.pollMs) : null;
      timer?.unref();
    });
  }

  /** Every event strictly after `afterSequence`, then live ones, until the terminal event or `signal`. */
  async *follow(
    responseId: string,
    afterSequence: number,
    signal?: AbortSignal,
  ): AsyncGenerator<StreamEvent> {
    let last = afterSequence;
    while (!signal?.aborted) {
      // Listen before reading, so an append between the read and the wait is not missed.
      const woken = this.wakeup(responseId, signal);
      const events = await this.store.eventsAfter(responseId, last, FOLLOW_PAGE);
      for (const event of events) {
        last = event.sequence_number;
        yield event;
        if (isTerminalEventType(event.type)) return;
      }
      if (events.length === 0) await woken;
      // A full page: more are stored, read after a turn of the event loop.
      else if (events.length === FOLLOW_PAGE) await yieldToEventLoop();
    }
  }

  /** Resolves once the response has its terminal event (immediately if it already has). */
  async untilTerminal(responseId: string, signal?: AbortSignal): Promise<void> {
    while (!signal?.aborted) {
      // Listen first, then look, so a terminal event appended in between is not missed.
      const ended = this.wakeup(`${responseId}:terminal`, signal);
      if ((await this.store.responseStatus(responseId)) !== 'in_progress') return;
      await ended;
    }
  }

  onAppend(listener: (appended: AppendedEvent) => void): () => void {
    this.wakeups.on('*', listener);
    return () => this.wakeups.off('*', listener);
  }
}
