import type { Clock } from '../../src/clock/clock.js';

interface Timer {
  readonly at: number;
  readonly ms: number;
  readonly fire: () => void;
}

/** One turn of the event loop, so that I/O callbacks and the promises they settle can run. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A clock that moves only when the test says: a call's budget, its backoff waits and its latency become
 * exact figures instead of real waits bounded by guesses.
 */
export class ManualClock implements Clock {
  #now = 0;
  #timers: Timer[] = [];
  /** The delays of the timers that fired, in order. */
  readonly fired: number[] = [];

  now(): number {
    return this.#now;
  }

  setTimer(ms: number, fire: () => void): () => void {
    const timer = { at: this.#now + ms, ms, fire };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((pending) => pending !== timer);
    };
  }

  /** The delays of the timers set and not yet fired or cancelled. */
  get pending(): number[] {
    return this.#timers.map((timer) => timer.ms);
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way, in order. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      await turn();
      const due = this.#earliest((timer) => timer.at <= target);
      if (due === undefined) break;
      this.#fire(due);
    }
    this.#now = target;
    await turn();
  }

  /**
   * Lets `pending` run to its end, jumping time to each timer it sets as soon as it sets it, except
   * timers of `leave` milliseconds (the call's budget, which must not expire on its own).
   */
  async runUntilSettled<T>(pending: Promise<T>, options: { leave?: number } = {}): Promise<T> {
    let settled = false;
    const done = pending.finally(() => {
      settled = true;
    });
    while (!settled) {
      await turn();
      const next = this.#earliest((timer) => timer.ms !== options.leave);
      if (next !== undefined) this.#fire(next);
    }
    return done;
  }

  #earliest(accept: (timer: Timer) => boolean): Timer | undefined {
    return this.#timers.filter(accept).sort((a, b) => a.at - b.at)[0];
  }

  #fire(timer: Timer): void {
    this.#timers = this.#timers.filter((pending) => pending !== timer);
    this.#now = Math.max(this.#now, timer.at);
    this.fired.push(timer.ms);
    timer.fire();
  }
}
