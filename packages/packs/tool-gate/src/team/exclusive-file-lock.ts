import { closeSync, openSync, readSync, statSync, unlinkSync, writeSync } from 'node:fs';

export interface FileLockOptions {
  /** How long to wait for a lock another process holds; 0 tries once. */
  readonly waitMs: number;
  /** A lock older than this is left over from a crashed process and is taken over. */
  readonly staleMs: number;
  /** The clock, in milliseconds (injectable for tests). */
  readonly now?: () => number;
}

/** Releases a lock; calling it twice is harmless. */
export type ReleaseFileLock = () => void;

const RETRY_MS = 5;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * An exclusive lock between processes: a file created with `O_EXCL` holding the owner's process
 * id. It is taken over when its owner is gone (no such process) or when it is older than
 * `staleMs`, so a killed hook or flusher never blocks the queue for good. Synchronous, because
 * its holders keep it for a file operation or two, and a hook must not yield to do so. Returns
 * null when the lock stayed held for `waitMs`.
 */
export function acquireFileLock(path: string, options: FileLockOptions): ReleaseFileLock | null {
  const now = options.now ?? Date.now;
  const deadline = now() + options.waitMs;
  for (;;) {
    try {
      const descriptor = openSync(path, 'wx', 0o600);
      try {
        writeSync(descriptor, `${process.pid}\n`);
      } finally {
        closeSync(descriptor);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(path);
        } catch {
          // Taken over as stale by another process: nothing of ours is left to remove.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (isStale(path, options.staleMs, now)) {
      try {
        unlinkSync(path);
      } catch {
        // Another process took it over first; try again.
      }
      continue;
    }
    if (now() >= deadline) return null;
    Atomics.wait(pause, 0, 0, RETRY_MS);
  }
}

/** True when the lock's owner has exited, or the lock is older than `staleMs`. */
function isStale(path: string, staleMs: number, now: () => number): boolean {
  let owner: number;
  try {
    const stat = statSync(path);
    if (now() - stat.mtimeMs > staleMs) return true;
    owner = Number.parseInt(readSmallFile(path), 10);
  } catch {
    return false; // removed meanwhile: the next attempt creates it
  }
  // An empty file is a lock being written this instant: not stale.
  if (!Number.isInteger(owner) || owner <= 0) return false;
  try {
    process.kill(owner, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists under another user; only ESRCH means it is gone.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function readSmallFile(path: string): string {
  const descriptor = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(32);
    const bytes = readSync(descriptor, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytes).toString('utf8');
  } finally {
    closeSync(descriptor);
  }
}
