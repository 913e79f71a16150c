import { EventEmitter, once } from 'node:events';
import { isTerminalEventType, type StreamEvent } from '@arbiter/uhp/wire';
import type { UhpStore } from '../storage/uhp-store.js';

/** Who an appended event belongs to, for the live feed of a harness. */
export interface EventOwner {
  readonly principalId: string;
  readonly harnessId: string;
  readonly sessionId: string;
}

export interface AppendedEvent {
  readonly responseId: string;
  readonly owner: EventOwner;
  readonly event: StreamEvent;
}

export type NewEvent = { readonly type: string } & Record<string, unknown>;

/**
 * The append-only event log of every response, in SQLite. Streams are fed from it, so they are gapless
 * and replayable from any sequence number; the in-process emitter only wakes readers up.
 */
export class EventLog {
  private readonly wakeups = new EventEmitter();
  private readonly nextSequence = new Map<string, number>();

  constructor(private readonly store: UhpStore) {
    this.wakeups.setMaxListeners(0);
  }

  append(responseId: string, owner: EventOwner, event: NewEvent): StreamEvent {
    const sequence = this.nextSequence.get(responseId) ?? this.store.lastSequenceNumber(responseId) + 1;
    const stored = { ...event, sequence_number: sequence } as StreamEvent;
    this.store.insertEvent(responseId, stored);
    if (isTerminalEventType(event.type)) this.nextSequence.delete(responseId);
    else this.nextSequence.set(responseId, sequence + 1);
    this.wakeups.emit(responseId);
    if (isTerminalEventType(event.type)) this.wakeups.emit(`${responseId}:terminal`);
    this.wakeups.emit('*', { responseId, owner, event: stored } satisfies AppendedEvent);
    return stored;
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
      const woken = once(this.wakeups, responseId, signal ? { signal } : {}).catch(() => undefined);
      const events = this.store.eventsAfter(responseId, last);
      for (const event of events) {
        last = event.sequence_number;
        yield event;
        if (isTerminalEventType(event.type)) return;
      }
      if (events.length === 0) await woken;
    }
  }

  /** Resolves once the response has its terminal event (immediately if it already has). */
  async untilTerminal(responseId: string, signal?: AbortSignal): Promise<void> {
    // Listen first, then look, so a terminal event appended in between is not missed.
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal?.addEventListener('abort', abort, { once: true });
    const ended = once(this.wakeups, `${responseId}:terminal`, { signal: controller.signal }).catch(
      () => undefined,
    );
    if (this.store.responseStatus(responseId) !== 'in_progress') controller.abort();
    await ended;
    signal?.removeEventListener('abort', abort);
  }

  onAppend(listener: (appended: AppendedEvent) => void): () => void {
    this.wakeups.on('*', listener);
    return () => this.wakeups.off('*', listener);
  }
}
