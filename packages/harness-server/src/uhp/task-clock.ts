import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The time a task lives by: when it was created and its session last touched (retention), when its
 * `timeout_seconds` runs out, and how long the offline model's `@sleep` waits. Injected so tests
 * drive a task's time instead of waiting for it (`packages/server/test/support/manual-task-clock.ts`);
 * the lease clock of a cluster is its own (`ClusterOptions.clock`).
 */
export interface TaskClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` once `ms` have passed; the returned function cancels it. */
  setTimer(callback: () => void, ms: number): () => void;
  /** Resolves once `ms` have passed; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemTaskClock: TaskClock = {
  now: () => Date.now(),
  setTimer(callback, ms) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
  sleep: (ms, signal) => sleep(ms, undefined, signal ? { signal } : {}),
};
