import type { Clock } from '@arbiter/decision';
import type { ArtifactLimits, QuotaReached } from './artifact-collection.js';
import type { Workspace } from './workspace/workspace.js';

/** How often a running turn's workspace is measured against its principal's quotas, at least. */
export const QUOTA_WATCH_INTERVAL_MS = 1000;

/**
 * A walk of a large workspace takes time on the thread pool, so the next one waits this many times
 * as long as the last took: the watch keeps at most a fifth of the pool's time for itself.
 */
const WALK_SHARE = 5;

/** A principal quota a running turn went past, with the usage measured. */
export interface QuotaOverrun extends QuotaReached {
  readonly used: number;
  readonly message: string;
}

/**
 * Measures the workspace of a running turn every `intervalMs` (longer for a workspace whose walk is
 * slow) and calls `onOver` once when the principal's usage passes its disk or file quota: what its
 * other sessions and stored files hold (`usedElsewhere`, read from the store) plus this workspace as
 * it is now. Without this, a principal's quota is only counted when a turn ends, and one command can
 * write far past it in its 30 seconds (RLIMIT_FSIZE bounds each file, not their sum). The walk is the
 * artifact walk (`Workspace.snapshot`: asynchronous, batched, bounded by `maxWorkspaceEntries`), so a
 * watched turn never holds the event loop. Returns the function that stops the watch. Nothing is
 * watched when neither quota is set.
 */
export function watchQuotas(options: {
  readonly workspace: Workspace;
  readonly limits: ArtifactLimits;
  readonly usedElsewhere: () => Promise<{ readonly bytes: number; readonly files: number }>;
  readonly clock: Clock;
  readonly intervalMs?: number;
  readonly onOver: (overrun: QuotaOverrun) => void;
  /** A measurement that failed (the store unreachable): reported, and the watch goes on. */
  readonly onError: (error: unknown) => void;
}): () => void {
  const { workspace, limits, clock } = options;
  const diskQuota = limits.maxDiskBytesPerPrincipal ?? null;
  const fileQuota = limits.maxFilesPerPrincipal ?? null;
  if (diskQuota === null && fileQuota === null) return () => {};
  const interval = options.intervalMs ?? QUOTA_WATCH_INTERVAL_MS;
  let stopped = false;
  let cancel = () => {};
  const measure = async (): Promise<QuotaOverrun | null> => {
    const started = clock.now();
    const elsewhere = await options.usedElsewhere();
    const now = await workspace.snapshot(limits.maxWorkspaceEntries);
    const walked = clock.now() - started;
    const bytes = elsewhere.bytes + now.bytes;
    const files = elsewhere.files + now.entries + (now.truncated ? 1 : 0);
    next(Math.max(interval, walked * WALK_SHARE));
    if (diskQuota !== null && bytes > diskQuota)
      return {
        quota: 'disk_bytes',
        limit: diskQuota,
        used: bytes,
        message: `the principal held ${bytes} bytes during the turn (its workspaces and stored files), over its disk quota of ${diskQuota} bytes, so the turn's programs were stopped`,
      };
    if (fileQuota !== null && files > fileQuota)
      return {
        quota: 'files',
        limit: fileQuota,
        used: files,
        message: `the principal held ${files} files during the turn (the entries of its workspaces and its stored files), over its file quota of ${fileQuota}, so the turn's programs were stopped`,
      };
    return null;
  };
  const next = (ms: number) => {
    if (stopped) return;
    cancel = clock.setTimer(ms, () => {
      measure().then(
        (overrun) => {
          if (overrun === null || stopped) return;
          stopped = true;
          cancel();
          options.onOver(overrun);
        },
        (error: unknown) => {
          if (stopped) return;
          options.onError(error);
          next(interval);
        },
      );
    });
  };
  next(interval);
  return () => {
    stopped = true;
    cancel();
  };
}
