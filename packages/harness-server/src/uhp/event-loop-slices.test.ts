import { describe, expect, it } from 'vitest';
import { LoopSlice, sortInSlices } from './event-loop-slices.js';

describe('sortInSlices', () => {
  it('gives the order of Array.prototype.sort, stably, for lengths around the run size', async () => {
    for (const length of [0, 1, 2, 1023, 1024, 1025, 2048, 5000, 9001]) {
      // Few distinct keys, so stability is tested: the index says which of equal keys came first.
      const items = Array.from({ length }, (_, index) => ({ key: (index * 7919) % 97, index }));
      const expected = [...items].sort((a, b) => a.key - b.key);
      const sorted = await sortInSlices(items, (a, b) => a.key - b.key);
      expect(sorted).toBe(items);
      expect(sorted).toEqual(expected);
    }
  });

  it('sorts buffers in byte order, as the workspace walk needs', async () => {
    const names = ['b', 'a', 'é', 'A', 'aa', '\u{1F600}', 'z'].map((name) => Buffer.from(name));
    const sorted = await sortInSlices([...names], Buffer.compare);
    expect(sorted.map((name) => name.toString())).toEqual([...names].sort(Buffer.compare).map(String));
  });

  it('gives the event loop back while it sorts a long list', async () => {
    const items = Array.from({ length: 200_000 }, (_, index) => (index * 2_654_435_761) % 1_000_003);
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    try {
      await sortInSlices(items, (a, b) => a - b);
    } finally {
      clearInterval(counting);
    }
    expect(items.every((value, index) => index === 0 || (items[index - 1] as number) <= value)).toBe(true);
    // A synchronous sort would let no timer run until it was done.
    expect(turns).toBeGreaterThan(1);
  });
});

describe('LoopSlice', () => {
  it('is due once its slice has passed, and starts a new one after yielding', async () => {
    // Long enough that a busy machine's preemption does not make it due early.
    const slice = new LoopSlice(200);
    expect(slice.due()).toBe(false);
    const until = performance.now() + 201;
    while (performance.now() < until);
    expect(slice.due()).toBe(true);
    await slice.pause();
    expect(slice.due()).toBe(false);
  });
});
