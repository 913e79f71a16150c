/**
 * Where a decision client reads time and sets its timers: the budget of a call, the waits between
 * attempts and the latency it reports. Injected so that tests run a call's whole timeline (a budget
 * expiring, a Retry-After honoured) without waiting for it.
 */
export interface DecisionClock {
  /** Milliseconds on a monotonic scale; only differences are meaningful. */
  now(): number;
  /** Calls `fire` after `ms` milliseconds unless the returned function is called first. */
  setTimer(ms: number, fire: () => void): () => void;
}

export const systemClock: DecisionClock = {
  now: () => performance.now(),
  setTimer(ms, fire) {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  },
};
