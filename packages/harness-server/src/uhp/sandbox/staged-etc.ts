import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * The sandbox's /etc as one staged copy of the allow-listed entries, so that a sandbox mounts it with
 * one read-only bind instead of one per entry. Each bind costs bubblewrap two mount calls and a read of
 * the mount table: seventeen of them were about 3.6 ms of every sandboxed start here (a third of the
 * sandbox's cost over a direct start, `bench/sandbox-start.mjs`).
 *
 * Principles:
 * - **The same view, not a wider one.** Only what an unprivileged program could read through the
 *   per-entry binds is copied: entries readable by others (and directories also searchable by
 *   others), symbolic links as links, never followed. Special files are left out. Nothing else of
 *   /etc is ever read.
 * - **Never stale.** The source entries and every directory copied are watched (inotify) before they
 *   are copied; any change marks the copy stale and the next start stages a new generation. A
 *   generation already mounted by a running program is never changed or removed while this process
 *   runs, so no program sees a half-written /etc. A generation removed from outside (a /tmp cleaner)
 *   is staged again.
 * - **No silent downgrade of isolation, no fragile speed-up.** When staging or watching fails, the
 *   sandbox falls back to the per-entry binds, which show the same entries; it never shows more.
 */
const PREFIX = 'arbiter-sandbox-etc-';

export class StagedEtc {
  private current: string | null = null;
  private stale = true;
  private broken = false;
  private generation = 0;
  private staging: Promise<void> | null = null;
  private watchers: fs.FSWatcher[] = [];
  private readonly root: string;

  /** Bounds on what is copied: /etc's allow-listed entries are a few thousand small files at most. */
  static readonly MAX_ENTRIES = 20_000;
  static readonly MAX_BYTES = 64 * 1024 * 1024;

  constructor(
    private readonly entries: readonly string[],
    private readonly source = '/etc',
    parent = os.tmpdir(),
    /** Called when a watched source changes (tests wait on it instead of sleeping). */
    private readonly onChange: () => void = () => {},
  ) {
    removeLeftBehind(parent);
    this.root = fs.mkdtempSync(path.join(parent, `${PREFIX}${process.pid}-`));
  }

  /**
   * The directory to mount read-only at /etc, staged again first if anything changed; null when it
   * cannot be staged here (the caller binds the entries one by one instead). Staging runs on the
   * thread pool (a few thousand files took 2.5 s of event loop when it was synchronous), and starts
   * that arrive meanwhile wait for the same staging instead of starting another.
   */
  async path(): Promise<string | null> {
    if (this.broken) return null;
    if (!this.stale && this.current !== null && fs.existsSync(this.current)) return this.current;
    this.staging ??= this.stage()
      .catch(() => {
        this.broken = true;
        this.unwatch();
      })
      .finally(() => {
        this.staging = null;
      });
    await this.staging;
    return this.broken ? null : this.current;
  }

  /** Stops watching and removes every generation (the process is ending, or the tests are). */
  close(): void {
    this.broken = true;
    this.unwatch();
    fs.rmSync(this.root, { recursive: true, force: true });
  }

  private async stage(): Promise<void> {
    this.unwatch();
    this.stale = false;
    this.watch(this.source, (name) => name === null || this.entries.includes(name.split('/')[0]!));
    this.generation += 1;
    const target = path.join(this.root, String(this.generation));
    await fsp.mkdir(target, { mode: 0o755 });
    const budget = { entries: StagedEtc.MAX_ENTRIES, bytes: StagedEtc.MAX_BYTES };
    for (const name of this.entries)
      await this.copy(path.join(this.source, name), path.join(target, name), budget);
    await fsp.chmod(target, 0o755);
    this.current = target;
  }

  private async copy(from: string, to: string, budget: { entries: number; bytes: number }): Promise<void> {
    const stat = await fsp.lstat(from).catch(() => null);
    if (!stat) return;
    if (--budget.entries < 0) throw new Error(`more than ${StagedEtc.MAX_ENTRIES} entries to stage`);
    if (stat.isSymbolicLink()) {
      await fsp.symlink(await fsp.readlink(from), to);
    } else if (stat.isFile()) {
      if ((stat.mode & 0o004) === 0) return;
      budget.bytes -= stat.size;
      if (budget.bytes < 0) throw new Error(`more than ${StagedEtc.MAX_BYTES} bytes to stage`);
      await fsp.copyFile(from, to, fs.constants.COPYFILE_EXCL);
      await fsp.chmod(to, stat.mode & 0o755);
    } else if (stat.isDirectory()) {
      if ((stat.mode & 0o005) !== 0o005) return;
      this.watch(from, () => true);
      await fsp.mkdir(to, { mode: 0o755 });
      for (const name of await fsp.readdir(from))
        await this.copy(path.join(from, name), path.join(to, name), budget);
      await fsp.chmod(to, stat.mode & 0o755);
    }
  }

  private watch(directory: string, matters: (name: string | null) => boolean): void {
    const watcher = fs.watch(directory, { persistent: false }, (_event, name) => {
      if (!matters(name === null ? null : String(name))) return;
      this.stale = true;
      this.onChange();
    });
    // A watch that fails can no longer tell a change: fall back to the per-entry binds for good.
    watcher.on('error', () => {
      this.broken = true;
      this.unwatch();
    });
    this.watchers.push(watcher);
  }

  private unwatch(): void {
    for (const watcher of this.watchers) watcher.close();
    this.watchers = [];
  }
}

/**
 * Removes the copies of processes that ended without removing theirs (killed by a signal, which runs
 * no exit handler): each copy's name carries its process id. Only this user's copies are touched, and
 * only where no process of that id runs; a copy of a live process is never removed.
 */
function removeLeftBehind(parent: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid === process.pid || isRunning(pid)) continue;
    const dir = path.join(parent, name);
    const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (stat?.isDirectory() && stat.uid === process.getuid?.())
      fs.rmSync(dir, { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
