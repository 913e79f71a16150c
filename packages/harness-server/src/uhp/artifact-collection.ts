import fs from 'node:fs';
import { writeFileAtomicallyAsync } from '@arbiter/storage';
import { LoopSlice, yieldToEventLoop } from './event-loop-slices.js';
import { mediaTypeOf } from './media-type.js';
import { newObjectId } from './object-id.js';
import type { UhpDataLayout } from './storage/data-layout.js';
import type { StoredFile, UhpStore } from './storage/uhp-store.js';
import type { CitedFile } from './streaming/turn-output.js';
import type { Workspace } from './workspace/workspace.js';

/**
 * What one turn may leave behind as artifacts. Every count and copy is bounded so that one tenant's
 * workspace cannot hold the event loop, the thread pool or the disk: docs/uhp-server.md, "Limits".
 */
export interface ArtifactLimits {
  /** Entries (files, folders, anything) walked in a workspace to find what a turn changed. */
  readonly maxWorkspaceEntries: number;
  /** Files stored as artifacts from one turn. */
  readonly maxFilesPerTurn: number;
  /** Bytes copied out as artifacts from one turn. */
  readonly maxBytesPerTurn: number;
  /** Artifacts one session keeps over all its turns. */
  readonly maxFilesPerSession: number;
  /**
   * Bytes one principal may hold on disk: its stored files (uploads and artifacts) and its
   * workspaces as measured at the end of each turn. A turn stores no artifact past it; a new task of
   * a principal at or over it is refused (`TaskService`). null or absent: no quota.
   */
  readonly maxDiskBytesPerPrincipal?: number | null;
  /**
   * Files one principal may hold: its stored files and the entries of its workspaces as counted at
   * the end of each turn (a walk stopped at `maxWorkspaceEntries` counts one more than it saw). A
   * turn over it stores no artifact; a new task of a principal at or over it is refused
   * (`TaskService`). null or absent: no quota.
   */
  readonly maxFilesPerPrincipal?: number | null;
}

/** A principal quota a turn went over: what `detail` of the turn's error names. */
export interface QuotaReached {
  readonly quota: 'disk_bytes' | 'files';
  readonly limit: number;
}

export const DEFAULT_ARTIFACT_LIMITS: ArtifactLimits = {
  maxWorkspaceEntries: 20_000,
  maxFilesPerTurn: 1_000,
  maxBytesPerTurn: 1024 * 1024 * 1024,
  maxFilesPerSession: 10_000,
};

/** The owner of a turn's artifacts and where their download URLs point. */
export interface ArtifactTurn {
  readonly principalId: string;
  readonly sessionId: string;
  readonly responseId: string;
  readonly containerId: string;
  /** Absolute base of download URLs in citations (`http://host/api/harness`). */
  readonly baseUrl: string;
}

export interface CollectedArtifacts {
  readonly cited: CitedFile[];
  /** Entries that exist but could not be artifacts (links swapped in, names that are not UTF-8). */
  readonly skipped: string[];
  /** The limit the turn went over, in words for the response's error; null when none was. */
  readonly overLimit: string | null;
  /** The principal quota the turn went over (then `overLimit` says so), or null. */
  readonly quota: QuotaReached | null;
}

/**
 * Finds the files a turn created or changed (or the runtime reported) and stores a copy of each as
 * an artifact. Every file-system call runs on the thread pool, a bounded batch at a time, the
 * comparison with the turn's start runs in slices of the event loop, and the rows are written a
 * bounded batch per transaction, so the event loop keeps serving other tenants while a workspace of
 * tens of thousands of files is collected. Past a limit, the files already stored are
 * kept and cited and the rest are not stored; the caller ends the turn with the limit's error.
 */
export async function collectArtifacts(options: {
  readonly workspace: Workspace;
  readonly before: ReadonlyMap<string, string>;
  readonly produced: ReadonlySet<string>;
  readonly turn: ArtifactTurn;
  readonly store: UhpStore;
  readonly layout: UhpDataLayout;
  readonly limits: ArtifactLimits;
  readonly now: () => number;
}): Promise<CollectedArtifacts> {
  const { workspace, before, produced, turn, store, layout, limits } = options;
  const cited: CitedFile[] = [];
  const skipped: string[] = [];
  let overLimit: string | null = null;
  let after: Awaited<ReturnType<Workspace['snapshot']>>;
  try {
    after = await workspace.snapshot(limits.maxWorkspaceEntries);
  } catch {
    return { cited, skipped: ['.'], overLimit: null, quota: null };
  }
  // The workspace as it is now counts towards the principal's quotas from this turn on, whatever is
  // decided below, so the next task sees it even when no artifact could be stored.
  const workspaceFiles = after.entries + (after.truncated ? 1 : 0);
  await store.setWorkspaceBytes(turn.sessionId, after.bytes);
  await store.setWorkspaceFiles(turn.sessionId, workspaceFiles);
  const quota = limits.maxDiskBytesPerPrincipal ?? null;
  let quotaRoom = Number.POSITIVE_INFINITY;
  let reached: QuotaReached | null = null;
  if (quota !== null) {
    const used = (await store.principalDiskBytes(turn.principalId, turn.sessionId)) + after.bytes;
    quotaRoom = quota - used;
    if (quotaRoom < 0) {
      reached = { quota: 'disk_bytes', limit: quota };
      overLimit = `the principal holds ${used} bytes (its workspaces and stored files), over its disk quota of ${quota} bytes, so nothing more is stored`;
    }
  }
  // Each artifact stored is one more file of the principal's.
  const fileQuota = limits.maxFilesPerPrincipal ?? null;
  let fileRoom = Number.POSITIVE_INFINITY;
  if (fileQuota !== null) {
    const used = (await store.principalFileCount(turn.principalId, turn.sessionId)) + workspaceFiles;
    fileRoom = Math.max(0, fileQuota - used);
    if (used > fileQuota && reached === null) {
      reached = { quota: 'files', limit: fileQuota };
      overLimit = `the principal holds ${used} files (the entries of its workspaces and its stored files), over its file quota of ${fileQuota}, so nothing more is stored`;
    }
  }
  skipped.push(...after.refused);
  // A quota reached is the more useful thing to say: it names what to free.
  if (after.truncated && reached === null)
    overLimit = `the workspace holds more than ${limits.maxWorkspaceEntries} entries, so only the first ${limits.maxWorkspaceEntries} (in name order) were looked at`;
  // Up to `maxWorkspaceEntries` files to compare: in slices, like the walk that found them.
  const slice = new LoopSlice();
  const changed: string[] = [];
  for (const [relative, signature] of after.files) {
    if (before.get(relative) !== signature || produced.has(relative)) changed.push(relative);
    await slice.pause();
  }
  const sessionRoom = Math.max(
    0,
    Math.min(
      limits.maxFilesPerTurn,
      limits.maxFilesPerSession - (await store.countSessionArtifacts(turn.sessionId)),
    ),
  );
  const room = Math.min(sessionRoom, fileRoom);
  if (changed.length > room) {
    if (room < sessionRoom && reached === null) {
      reached = { quota: 'files', limit: fileQuota as number };
      overLimit ??= `the turn changed ${changed.length} files and the principal has room for ${room} more under its file quota of ${fileQuota}`;
    }
    overLimit ??=
      sessionRoom < limits.maxFilesPerTurn
        ? `the turn changed ${changed.length} files and the session has room for ${sessionRoom} more artifacts (at most ${limits.maxFilesPerSession} per session)`
        : `the turn changed ${changed.length} files, more than the ${limits.maxFilesPerTurn} artifacts one turn may store`;
  }
  // The bytes the turn may store: its own limit, or the principal's room under the quota if less.
  const perTurn = Math.min(limits.maxBytesPerTurn, Math.max(0, quotaRoom));
  let bytesLeft = perTurn;
  // The rows of copied files are written `INSERT_BATCH` at a time, each batch one transaction: one
  // commit (and its WAL frames) per batch, not per file, and the event loop turns between two.
  let copied: { file: StoredFile; citation: CitedFile }[] = [];
  const insertCopied = async () => {
    const batch = copied;
    copied = [];
    if (batch.length === 0) return;
    await store.transaction(async (tx) => {
      for (const { file } of batch) await tx.insertFile(file);
    });
    cited.push(...batch.map(({ citation }) => citation));
    await yieldToEventLoop();
  };
  for (const relative of changed.slice(0, reached?.quota === 'disk_bytes' ? 0 : room)) {
    const id = newObjectId('file');
    let size = 0;
    try {
      await writeFileAtomicallyAsync(layout.fileBlob(id), async (temporary) => {
        const copied = await workspace.copyOut(relative, temporary, bytesLeft);
        // Larger than the room left, or grown past it during the copy: not kept.
        if (copied === null || copied > bytesLeft) throw new OverByteLimit();
        size = copied;
      });
    } catch (error) {
      await fs.promises.rm(layout.fileBlob(id), { force: true });
      if (error instanceof OverByteLimit) {
        if (perTurn < limits.maxBytesPerTurn) {
          reached ??= { quota: 'disk_bytes', limit: quota as number };
          overLimit ??= `the files of the turn are larger than the ${perTurn} bytes left under the principal's disk quota of ${quota} bytes`;
        } else
          overLimit ??= `the files of the turn are larger than the ${limits.maxBytesPerTurn} bytes one turn may store`;
        continue;
      }
      // Replaced by a link or FIFO since the snapshot, or removed: not followed, not stored.
      skipped.push(relative);
      continue;
    }
    bytesLeft -= size;
    copied.push({
      file: {
        id,
        principalId: turn.principalId,
        containerId: turn.containerId,
        sessionId: turn.sessionId,
        responseId: turn.responseId,
        filename: relative,
        mediaType: mediaTypeOf(relative),
        bytes: size,
        purpose: 'artifact',
        createdAt: Math.floor(options.now() / 1000),
      },
      citation: {
        container_id: turn.containerId,
        file_id: id,
        filename: relative,
        download_url: `${turn.baseUrl}/v1/containers/${turn.containerId}/files/${id}/content`,
      },
    });
    if (copied.length >= INSERT_BATCH) await insertCopied();
  }
  await insertCopied();
  return { cited, skipped, overLimit, quota: reached };
}

class OverByteLimit extends Error {}

/**
 * Artifact rows written in one transaction. A crash between a batch's copies and its commit leaves
 * at most this many blobs without rows (the turn is then recorded as interrupted).
 */
const INSERT_BATCH = 32;
