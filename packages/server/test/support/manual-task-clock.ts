import type { Clock } from '@arbiter/decision';

interface Timer {
  readonly at: number;
  readonly fire: () => void;
}

/** One turn of the event loop, so that I/O callbacks and the promises they settle can run. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A task clock that moves only when the test says: a session's retention, a task's
 * `timeout_seconds` and the offline model's `@sleep` pass in an instant instead of in real time,
 * and a task that sleeps stays asleep until the test moves time on.
 */
export class ManualTaskClock implements Clock {
  #now = Date.UTC(2026, 0, 1);
  #timers: Timer[] = [];
  #waiters: (() => void)[] = [];

  now(): number {
    return this.#now;
  }

  setTimer(ms: number, fire: () => void): () => void {
    const timer = { at: this.#now + ms, fire };
    this.#timers.push(timer);
    for (const wake of this.#waiters.splice(0)) wake();
    return () => {
      this.#timers = this.#timers.filter((pending) => pending !== timer);
    };
  }

  /** How many timers and sleeps are waiting for time to pass. */
  get pending(): number {
    return this.#timers.length;
  }

  /** Resolves once at least `count` timers and sleeps are waiting (a task has reached its wait). */
  async untilPending(count: number): Promise<void> {
    while (this.#timers.length < count) await new Promise<void>((wake) => this.#waiters.push(wake));
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way, in order. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      await turn();
      const due = this.#timers.filter((timer) => timer.at <= target).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      this.#timers = this.#timers.filter((pending) => pending !== due);
      this.#now = Math.max(this.#now, due.at);
      due.fire();
    }
    this.#now = target;
    await turn();
  }
}
