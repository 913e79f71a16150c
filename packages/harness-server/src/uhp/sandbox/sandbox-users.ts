import type fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { SandboxUserRange } from './sandbox-config.js';

/**
 * Host ids for sandboxes of a server that runs as root. Each running sandbox leases an id no other
 * running sandbox holds, because the kernel counts RLIMIT_NPROC per real user: with one shared id, a
 * fork bomb in one tenant's sandbox would leave every other tenant's sandbox unable to fork. A
 * workspace asks for the same id each time (a hash of its path), so its files rarely change hands.
 */
export class SandboxUsers {
  /** Leased ids → the workspace holding them and how many of its programs run. */
  private readonly leased = new Map<number, { workspace: string; holders: number }>();

  constructor(private readonly range: SandboxUserRange) {}

  /**
   * An id for `workspace`, or null when every id of the range is in use. Programs of one workspace
   * (one session, one owner) share its id, so an agent still ending its last turn and the next turn
   * see each other's files as their own.
   */
  lease(workspace: string): { id: number; alone: boolean } | null {
    const start = hash(workspace) % this.range.count;
    for (let step = 0; step < this.range.count; step++) {
      const id = this.range.first + ((start + step) % this.range.count);
      const lease = this.leased.get(id);
      if (lease === undefined) {
        this.leased.set(id, { workspace, holders: 1 });
        return { id, alone: true };
      }
      if (lease.workspace === workspace) {
        lease.holders++;
        return { id, alone: false };
      }
    }
    return null;
  }

  release(id: number): void {
    const lease = this.leased.get(id);
    if (lease && --lease.holders === 0) this.leased.delete(id);
  }
}

/**
 * Gives the workspace tree to `id` so the sandboxed program can change what the server or an earlier
 * sandbox wrote there. Links are re-owned, never followed (lchown), and only directories lstat saw
 * as directories are entered. Call it only while no program of this workspace runs (a lease that is
 * `alone`): every program's PID namespace is gone before its lease ends, so nothing can swap an
 * entry for a link between the check and the use.
 */
export async function handOverWorkspace(root: string, id: number): Promise<void> {
  // On the thread pool, a batch of entries at a time: a workspace of tens of thousands of files is
  // handed over without the event loop waiting on it.
  const visit = async (target: string, stat: fs.Stats): Promise<void> => {
    if (stat.uid !== id || stat.gid !== id) await fsp.lchown(target, id, id);
    if (!stat.isDirectory()) return;
    const names = await fsp.readdir(target);
    for (let start = 0; start < names.length; start += HAND_OVER_BATCH)
      await Promise.all(
        names.slice(start, start + HAND_OVER_BATCH).map(async (name) => {
          const child = path.join(target, name);
          const childStat = await fsp.lstat(child).catch(() => null);
          if (childStat) await visit(child, childStat);
        }),
      );
  };
  const stat = await fsp.lstat(root);
  if (!stat.isDirectory()) throw new Error('the workspace is not a directory');
  await visit(root, stat);
}

const HAND_OVER_BATCH = 16;

function hash(text: string): number {
  let value = 2166136261;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 16777619);
  }
  return value >>> 0;
}
