/**
 * Where code that waits reads time and sets its timers: the decision client (a call's budget, the
 * waits between attempts, the latency it reports) and the harness server's tasks (when a task was
 * created and its session last touched, its `timeout_seconds`, the offline model's `@sleep`).
 * Injected so that tests drive a timeline (a budget expiring, a Retry-After honoured, a retention
 * passing) without waiting for it; one interface, so one manual clock shape serves every test.
 */
export interface Clock {
  /**
   * Milliseconds. Durations are differences of two readings; a clock whose readings are stored
   * (a task's `created_at`) counts from the epoch, as `systemClock` does.
   */
  now(): number;
  /** Calls `fire` after `ms` milliseconds unless the returned function is called first. */
  setTimer(ms: number, fire: () => void): () => void;
}

/** The system's clock: wall time since the epoch, and the platform's timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fire) {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  },
};

/**
 * Resolves once `ms` have passed on `clock`; rejects with the signal's reason when it aborts
 * first. Built on `setTimer`, so a manual clock's sleeps wait for the test to move time on.
 */
export function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      cancel();
      reject(signal?.reason);
    };
    const cancel = clock.setTimer(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
