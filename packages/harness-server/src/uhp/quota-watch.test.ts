import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Clock } from '@arbiter/decision';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_ARTIFACT_LIMITS } from './artifact-collection.js';
import { type QuotaOverrun, watchQuotas } from './quota-watch.js';
import { Workspace } from './workspace/workspace.js';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-quota-watch-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A clock whose timers fire only when the test says; time stands still otherwise. */
class StepClock implements Clock {
  timers: { ms: number; fire: () => void }[] = [];
  now = () => 0;
  setTimer(ms: number, fire: () => void): () => void {
    const timer = { ms, fire };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((pending) => pending !== timer);
    };
  }
  /** Fires the pending timers, then lets the measurement they start finish (real file-system calls). */
  async tick(): Promise<void> {
    const due = this.timers.splice(0);
    for (const timer of due) timer.fire();
    for (let i = 0; i < 50 && this.timers.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  }
}

function watched(
  limits: { disk?: number | null; files?: number | null },
  elsewhere = { bytes: 0, files: 0 },
) {
  const workspace = new Workspace(fs.mkdtempSync(path.join(scratch, 'ws-')));
  const clock = new StepClock();
  const over: QuotaOverrun[] = [];
  const errors: unknown[] = [];
  const stop = watchQuotas({
    workspace,
    limits: {
      ...DEFAULT_ARTIFACT_LIMITS,
      maxDiskBytesPerPrincipal: limits.disk ?? null,
      maxFilesPerPrincipal: limits.files ?? null,
    },
    usedElsewhere: async () => elsewhere,
    clock,
    intervalMs: 1000,
    onOver: (overrun) => over.push(overrun),
    onError: (error) => errors.push(error),
  });
  return { root: workspace.root, clock, over, errors, stop };
}

describe('watchQuotas', () => {
  it('stops a turn whose workspace goes past the disk quota while it runs, counting the principal’s other holdings', async () => {
    const watch = watched({ disk: 10_000 }, { bytes: 6_000, files: 0 });
    fs.writeFileSync(path.join(watch.root, 'small'), Buffer.alloc(3_000));
    await watch.clock.tick();
    expect(watch.over).toEqual([]);
    expect(watch.clock.timers.map((timer) => timer.ms)).toEqual([1000]);
    // One huge file (here 5,000 bytes) written between two measurements: 6,000 + 8,000 > 10,000.
    fs.writeFileSync(path.join(watch.root, 'huge'), Buffer.alloc(5_000));
    await watch.clock.tick();
    await new Promise((r) => setTimeout(r, 50));
    expect(watch.over).toEqual([
      expect.objectContaining({ quota: 'disk_bytes', limit: 10_000, used: 14_000 }),
    ]);
    expect(watch.over[0]?.message).toMatch(
      /over its disk quota of 10000 bytes, so the turn's programs were stopped/,
    );
    // Reported once; nothing more is measured.
    expect(watch.clock.timers).toEqual([]);
    expect(watch.errors).toEqual([]);
  });

  it('stops a turn that makes more files than the file quota leaves', async () => {
    const watch = watched({ files: 50 }, { bytes: 0, files: 20 });
    fs.mkdirSync(path.join(watch.root, 'many'));
    for (let i = 0; i < 40; i++) fs.writeFileSync(path.join(watch.root, 'many', String(i)), '');
    await watch.clock.tick();
    await new Promise((r) => setTimeout(r, 50));
    // 20 elsewhere + the folder + its 40 files.
    expect(watch.over).toEqual([expect.objectContaining({ quota: 'files', limit: 50, used: 61 })]);
  });

  it('sets no timer without a quota, and none is left once stopped', async () => {
    expect(watched({}).clock.timers).toEqual([]);
    const watch = watched({ disk: 1_000_000 });
    expect(watch.clock.timers).toHaveLength(1);
    watch.stop();
    expect(watch.clock.timers).toEqual([]);
  });
});
