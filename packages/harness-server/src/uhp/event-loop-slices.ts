/**
 * Work whose size a tenant decides (the entries of a workspace, the files a turn cites) runs on the
 * event loop in slices of at most `SLICE_MS`, with a turn of the loop between two: other requests
 * and `/health` wait for one slice, never for the whole of it (issue 29).
 */
export const SLICE_MS = 8;

/** Lets every ready callback of the event loop (I/O, timers, other requests) run before going on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Tells a loop when its slice is spent. `due()` is a clock read, cheap enough for every item; the
 * loop then awaits `yield()`, which also starts the next slice.
 */
export class LoopSlice {
  private started = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  due(): boolean {
    return performance.now() - this.started >= this.sliceMs;
  }

  async yield(): Promise<void> {
    await yieldToEventLoop();
    this.started = performance.now();
  }

  /** `yield()` when the slice is spent; otherwise nothing, without a turn of the event loop. */
  async pause(): Promise<void> {
    if (this.due()) await this.yield();
  }
}

/** How many items one sorted run holds: sorted at once, it costs well under a slice. */
const RUN = 1024;

/**
 * A stable sort of `items` (in place, also returned) that runs in slices: runs of `RUN` items are
 * sorted at once, then merged pairwise, and the loop is given back whenever a slice is spent. The
 * same order as `items.sort(compare)` for a consistent `compare`, at the same O(n log n) cost, but
 * the event loop never waits for more than about one slice of it, whatever the length.
 */
export async function sortInSlices<T>(items: T[], compare: (a: T, b: T) => number): Promise<T[]> {
  const slice = new LoopSlice();
  for (let start = 0; start < items.length; start += RUN) {
    const run = items.slice(start, start + RUN).sort(compare);
    for (let index = 0; index < run.length; index++) items[start + index] = run[index] as T;
    await slice.pause();
  }
  let source = items;
  let target = new Array<T>(items.length);
  for (let width = RUN; width < items.length; width *= 2) {
    for (let left = 0; left < items.length; left += 2 * width) {
      const middle = Math.min(left + width, items.length);
      const right = Math.min(left + 2 * width, items.length);
      let i = left;
      let j = middle;
      for (let k = left; k < right; k++) {
        // Equal items keep their order: the left run's first.
        if (i < middle && (j >= right || compare(source[i] as T, source[j] as T) <= 0))
          target[k] = source[i++] as T;
        else target[k] = source[j++] as T;
        if ((k & 255) === 0) await slice.pause();
      }
    }
    [source, target] = [target, source];
  }
  if (source !== items) for (let index = 0; index < items.length; index++) items[index] = source[index] as T;
  return items;
}
