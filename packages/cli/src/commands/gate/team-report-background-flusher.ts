import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TeamReportQueue } from '@arbiter/tool-gate/team-reporting';
import { flushTeamReports, type TeamFlushOptions, type TeamFlushOutcome } from './team-report-flusher.js';

/**
 * The flusher a hook starts stays a while after its flush and sends what later hooks queue, so
 * an agent making a call every few seconds costs one flusher process per quiet spell, not one
 * per call: a flush process costs several times the CPU of a forwarded hook (docs/tool-gate.md).
 * It holds the flush lock only while it sends, so `arbiter gate report flush` run by hand never
 * waits for its idle time.
 */
export const BACKGROUND_FLUSHER = {
  /** How long it waits for more records after the queue was last empty. */
  lingerMs: 20_000,
  /** How often it looks at the queue's size meanwhile (a stat, no read). */
  pollMs: 500,
  /** Its pid file counts as alive this long after its last touch. */
  aliveMs: 5_000,
} as const;

export interface BackgroundFlushOptions extends TeamFlushOptions {
  readonly lingerMs?: number;
  readonly pollMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

const pidPath = (directory: string): string => join(directory, 'flusher.pid');

/**
 * Flushes, then keeps flushing whenever the queue has records, until it stayed empty for
 * `lingerMs` or a flush failed (hooks then back off; see `reportHookEvent`). Returns the last
 * flush's outcome.
 */
export async function runBackgroundFlusher(options: BackgroundFlushOptions): Promise<TeamFlushOutcome> {
  const lingerMs = options.lingerMs ?? BACKGROUND_FLUSHER.lingerMs;
  const pollMs = options.pollMs ?? BACKGROUND_FLUSHER.pollMs;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const queue = new TeamReportQueue({ directory: options.directory });
  const pid = pidPath(options.directory);
  let outcome = await flushTeamReports(options);
  try {
    writeFileSync(pid, `${process.pid}\n`, { mode: 0o600 });
    let quietSince = now();
    while (outcome.ok && now() - quietSince < lingerMs) {
      await sleep(pollMs);
      touch(pid);
      if (queue.status().records === 0) continue;
      outcome = await flushTeamReports(options);
      quietSince = now();
    }
  } finally {
    // Only our own file: a newer flusher may have replaced it.
    if (ownerOf(pid) === process.pid) rmSync(pid, { force: true });
  }
  return outcome;
}

/** True while a background flusher is alive for this directory: hooks then start none. */
export function backgroundFlusherRunning(directory: string, now: number): boolean {
  const pid = pidPath(directory);
  try {
    if (now - statSync(pid).mtimeMs > BACKGROUND_FLUSHER.aliveMs) return false;
    const owner = ownerOf(pid);
    if (owner === null) return false;
    process.kill(owner, 0);
    return true;
  } catch (error) {
    // EPERM: alive under another user; anything else (no file, no process): not running.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(path: string): number | null {
  try {
    const owner = Number.parseInt(readFileSync(path, 'utf8'), 10);
    return Number.isInteger(owner) && owner > 0 ? owner : null;
  } catch {
    return null;
  }
}

function touch(path: string): void {
  try {
    const time = new Date();
    utimesSync(path, time, time);
  } catch {
    // Removed by hand: the next hook starts another flusher, which is harmless.
  }
}
