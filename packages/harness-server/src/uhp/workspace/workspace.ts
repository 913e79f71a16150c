import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { LoopSlice, sortInSlices } from '../event-loop-slices.js';
import { DirectoryHandle, FS_BATCH, UntrustedEntryError } from './directory-handle.js';

const readFd = promisify(fs.read);
const writeFd = promisify(fs.write) as (
  fd: number,
  buffer: Uint8Array,
  offset: number,
  length: number,
) => Promise<{ bytesWritten: number }>;
const closeFd = promisify(fs.close);

const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/** A path the workspace refuses: absolute, escaping, through a symlink out, or otherwise unsafe. */
export class WorkspacePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkspacePathError';
  }
}

/** Directories inside a workspace that belong to the server, not to the task (skills, inputs). */
export const RESERVED_WORKSPACE_DIR = '.arbiter';

/**
 * A session's working directory. Every path an agent names is resolved against the real path of the
 * root and refused when it leaves it, including through symlinks that point outside. What the server
 * itself does there (snapshots, artifact copies, inputs, skills, deletion) never follows anything:
 * the agent may have left links, FIFOs or sockets anywhere, and may still be running, so those
 * operations go through `DirectoryHandle`s, one no-follow component at a time.
 */
export class Workspace {
  readonly root: string;

  /** Makes and resolves the folder synchronously; `made` (from `open`) says `root` already is both. */
  constructor(root: string, options: { readonly made?: boolean } = {}) {
    if (options.made) {
      this.root = root;
      return;
    }
    fs.mkdirSync(root, { recursive: true, mode: 0o700 });
    this.root = fs.realpathSync(root);
  }

  /**
   * A workspace whose folder is made when absent and resolved on the thread pool: each task opens
   * one, and a disk kept busy by another tenant can hold a `mkdir` for long.
   */
  static async open(root: string): Promise<Workspace> {
    await fs.promises.mkdir(root, { recursive: true, mode: 0o700 });
    return new Workspace(await fs.promises.realpath(root), { made: true });
  }

  /** The absolute path of `relativePath`, confined to the workspace. */
  resolve(relativePath: string): string {
    if (relativePath.includes('\0')) throw new WorkspacePathError('The path contains a NUL byte.');
    if (path.isAbsolute(relativePath)) throw new WorkspacePathError('Absolute paths are not allowed.');
    const target = path.resolve(this.root, relativePath);
    if (!this.contains(target)) throw new WorkspacePathError('The path leaves the workspace.');
    // The deepest existing ancestor decides where a symlink really points.
    let existing = target;
    while (!fs.lstatSync(existing, { throwIfNoEntry: false })) existing = path.dirname(existing);
    let real: string;
    try {
      real = fs.realpathSync(existing);
    } catch {
      // A dangling link: where it would lead cannot be checked, so it is not followed.
      throw new WorkspacePathError('The path goes through a broken link.');
    }
    if (!this.contains(real)) throw new WorkspacePathError('The path leaves the workspace through a link.');
    if (existing === target) return real;
    return path.join(real, path.relative(existing, target));
  }

  /**
   * Reads at most `maxBytes` of the file at `relativePath` for the agent's file tools, on the thread
   * pool: only the bytes returned are read, so a file near the size limit costs the server no more
   * than a small one. `size` is the whole file's, so a caller can say it was cut. Links inside the
   * workspace are resolved first (`resolve`), then the resolved path, which has no links left, is
   * opened one no-follow component at a time: a component swapped for a link in between (by a
   * process the agent left running) is refused instead of followed out of the workspace.
   */
  async readFile(relativePath: string, maxBytes: number): Promise<{ bytes: Buffer; size: number }> {
    const relative = this.resolvedRelative(relativePath);
    const segments = relative.split(path.sep);
    const name = segments.pop() ?? '';
    const root = DirectoryHandle.open(this.root);
    try {
      const dir = await this.openDirectoriesAsync(root, segments);
      try {
        const { fd, stat } = await dir.openRegularFileAsync(name);
        try {
          const buffer = Buffer.alloc(Math.min(maxBytes, stat.size));
          let filled = 0;
          while (filled < buffer.length) {
            const { bytesRead } = await readFd(fd, buffer, filled, buffer.length - filled, filled);
            if (bytesRead === 0) break;
            filled += bytesRead;
          }
          return { bytes: buffer.subarray(0, filled), size: stat.size };
        } finally {
          fs.closeSync(fd);
        }
      } finally {
        dir.close();
      }
    } catch (error) {
      if (error instanceof UntrustedEntryError)
        throw new WorkspacePathError('The path is a link or special file, or changed into one while in use.');
      throw error;
    } finally {
      root.close();
    }
  }

  /** Writes a file for the agent's file tools, creating folders; a link planted at the name is replaced. */
  writeFile(relativePath: string, data: string | Uint8Array): void {
    this.atResolved(relativePath, true, (dir, name) => {
      const flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK;
      let fd: number;
      try {
        fd = fs.openSync(dir.childPath(name), flags, 0o600);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ELOOP' && code !== 'ENXIO') throw error;
        // A link (or a FIFO) at the name itself: remove it, never write through it.
        fs.unlinkSync(dir.childPath(name));
        fd = fs.openSync(dir.childPath(name), flags | fs.constants.O_EXCL, 0o600);
      }
      try {
        if (!fs.fstatSync(fd).isFile()) throw new UntrustedEntryError('Not a regular file.', name);
        fs.writeFileSync(fd, data);
      } finally {
        fs.closeSync(fd);
      }
    });
  }

  /** The entries of a folder for the agent's `list` tool, read through a no-follow handle. */
  listDirectory(relativePath: string): { name: string; directory: boolean }[] {
    const resolved = this.resolve(relativePath);
    return this.withRoot((root) => {
      const dir = this.openResolved(root, path.relative(this.root, resolved), false);
      try {
        return dir
          .entries()
          .map((entry) => ({ name: entry.name.toString('utf8'), directory: entry.isDirectory() }));
      } finally {
        dir.close();
      }
    });
  }

  /** The resolved relative path of a file the agent names; never the workspace itself. */
  private resolvedRelative(relativePath: string): string {
    const relative = path.relative(this.root, this.resolve(relativePath));
    if (relative === '') throw new WorkspacePathError('The path names the workspace itself, not a file.');
    return relative;
  }

  /** Opens each directory of `segments` below `root` on the thread pool, none of them followed if a link. */
  private async openDirectoriesAsync(
    root: DirectoryHandle,
    segments: readonly string[],
  ): Promise<DirectoryHandle> {
    let current = root.openPath('');
    for (const segment of segments.filter((part) => part !== '' && part !== '.')) {
      try {
        const next = await current.openDirectoryAsync(segment);
        current.close();
        current = next;
      } catch (error) {
        current.close();
        throw error;
      }
    }
    return current;
  }

  private atResolved<T>(
    relativePath: string,
    create: boolean,
    use: (dir: DirectoryHandle, name: string) => T,
  ): T {
    const relative = this.resolvedRelative(relativePath);
    return this.withRoot((root) => {
      const dir = this.openResolved(root, path.dirname(relative), create);
      try {
        return use(dir, path.basename(relative));
      } catch (error) {
        if (error instanceof UntrustedEntryError)
          throw new WorkspacePathError(
            'The path is a link or special file, or changed into one while in use.',
          );
        throw error;
      } finally {
        dir.close();
      }
    });
  }

  private openResolved(root: DirectoryHandle, relativeDir: string, create: boolean): DirectoryHandle {
    try {
      return root.openPath(relativeDir.split(path.sep).join('/'), { create });
    } catch (error) {
      if (error instanceof UntrustedEntryError)
        throw new WorkspacePathError(
          'The path goes through a link or a file, or changed into one while in use.',
        );
      throw error;
    }
  }

  private contains(candidate: string): boolean {
    return candidate === this.root || candidate.startsWith(this.root + path.sep);
  }

  /**
   * Regular files under the root (excluding the server's reserved folder) with size and mtime, by
   * relative path. Directories are entered through `O_NOFOLLOW` handles and entries are `lstat`ed, so
   * nothing an agent linked in is followed; links, FIFOs, sockets and devices are not files and are
   * left out. A name that is not UTF-8 cannot be an artifact's name, so it is reported in `refused`.
   *
   * Every call runs on the thread pool, `FS_BATCH` at a time (a folder is read `LIST_BATCH` names at
   * a time), its names are sorted and decoded in slices of the event loop, and the walk stops after
   * `maxEntries` entries (of any kind): a workspace of a hundred thousand files neither holds the
   * event loop nor takes the thread pool from other tenants. Names are walked in byte order, so two snapshots of an
   * unchanged workspace stop at the same entry.
   */
  async snapshot(maxEntries: number = Number.POSITIVE_INFINITY): Promise<WorkspaceSnapshot> {
    const files = new Map<string, string>();
    const refused: string[] = [];
    let entries = 0;
    let bytes = 0;
    let truncated = false;
    // Listing, sorting and decoding a folder's names all grow with what the tenant put there, so
    // each runs in slices (event-loop-slices.ts): the walk never holds the loop for a whole folder.
    const slice = new LoopSlice();
    const walk = async (dir: DirectoryHandle, prefix: string): Promise<void> => {
      // Sorted by the names' latin1 strings: one code unit per byte, so the strings' order is the
      // bytes' order, and comparing strings costs a third of `Buffer.compare` for every pair.
      const listed: { entry: fs.Dirent<Buffer>; key: string }[] = [];
      for (const entry of await dir.entriesAsync()) {
        listed.push({ entry, key: entry.name.toString('latin1') });
        await slice.pause();
      }
      await sortInSlices(listed, (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const regular: string[] = [];
      const directories: string[] = [];
      for (const { entry } of listed) {
        await slice.pause();
        const name = strictUtf8(entry.name);
        // The server's own folder is neither walked nor counted against the task's limits.
        if (name !== null && `${prefix}${name}` === RESERVED_WORKSPACE_DIR) continue;
        if (entries >= maxEntries) {
          truncated = true;
          break;
        }
        entries++;
        if (name === null) {
          refused.push(`${prefix}${entry.name.toString('utf8')}`);
          continue;
        }
        if (entry.isDirectory()) directories.push(name);
        else if (entry.isFile()) regular.push(name);
      }
      for (let start = 0; start < regular.length; start += FS_BATCH) {
        const batch = regular.slice(start, start + FS_BATCH);
        const stats = await Promise.all(
          batch.map((name) => fs.promises.lstat(dir.childPath(name)).catch(() => null)),
        );
        // Entered in name order, not in the order the stats complete: which files a limit keeps
        // must not depend on the thread pool's timing.
        batch.forEach((name, index) => {
          const stat = stats[index];
          if (!stat?.isFile()) return;
          files.set(`${prefix}${name}`, `${stat.size}:${stat.mtimeMs}`);
          bytes += stat.size;
        });
      }
      for (const name of directories) {
        if (truncated) return;
        let child: DirectoryHandle;
        try {
          child = await dir.openDirectoryAsync(name);
        } catch (error) {
          // Swapped for a link (or removed) since readdir: not followed, not listed.
          if (error instanceof UntrustedEntryError || isMissing(error)) continue;
          throw error;
        }
        try {
          await walk(child, `${prefix}${name}/`);
        } finally {
          child.close();
        }
      }
    };
    const root = DirectoryHandle.open(this.root);
    try {
      await walk(root, '');
    } finally {
      root.close();
    }
    return { files, refused, truncated, bytes, entries };
  }

  /**
   * Copies the regular file at `relative` to `destination` (a server-owned path), on the thread
   * pool. Every directory on the way and the file itself are opened without following links, and the
   * copy reads the opened file through its descriptor, so a link or FIFO swapped in at any point is
   * refused, not followed. A file larger than `maxBytes` is not copied (`null`); otherwise the answer
   * is the copy's size, not the source's, as the source may still be growing.
   */
  async copyOut(
    relative: string,
    destination: string,
    maxBytes = Number.POSITIVE_INFINITY,
  ): Promise<number | null> {
    const segments = relative.split('/');
    const name = segments.pop() ?? '';
    const root = DirectoryHandle.open(this.root);
    try {
      const dir = await this.openDirectoriesAsync(root, segments);
      try {
        const { fd, stat } = await dir.openRegularFileAsync(name);
        try {
          if (stat.size > maxBytes) return null;
          await fs.promises.copyFile(`/proc/self/fd/${fd}`, destination);
          return (await fs.promises.stat(destination)).size;
        } finally {
          fs.closeSync(fd);
        }
      } finally {
        dir.close();
      }
    } finally {
      root.close();
    }
  }

  /** What is at a top-level name of the workspace, without following it. */
  kindOf(name: string): ReturnType<DirectoryHandle['kindOf']> {
    return this.withRoot((root) => root.kindOf(name));
  }

  /**
   * Writes a task's input file at a top-level name. The bytes go to a fresh file created with
   * `O_EXCL | O_NOFOLLOW`, which is then renamed over the name: `rename` replaces a link or FIFO
   * the agent left there instead of writing through it, and fails on a directory. The creation,
   * the write (up to the file size limit) and the rename run on the thread pool.
   */
  async writeInput(name: string, data: Uint8Array): Promise<void> {
    const root = DirectoryHandle.open(this.root);
    try {
      if (root.kindOf(name) === 'directory')
        throw new UntrustedEntryError(`An input file cannot replace the workspace folder "${name}".`, name);
      const staging = `.arbiter-input-${randomBytes(8).toString('hex')}`;
      await writeWhole(await root.createExclusiveAsync(staging), data);
      try {
        await fs.promises.rename(root.childPath(staging), root.childPath(name));
      } catch (error) {
        await fs.promises.rm(root.childPath(staging), { force: true });
        throw error;
      }
    } finally {
      root.close();
    }
  }

  /**
   * Replaces the server's copy of the harness skills (`.arbiter/skills/<skill>/<path>`). Whatever
   * the agent left at `.arbiter` or `.arbiter/skills` (a link, a file, a FIFO) is unlinked, never
   * followed; the old tree is emptied through no-follow handles; the new files are created with
   * `O_EXCL | O_NOFOLLOW` through handles of the directories just made. Every call runs on the
   * thread pool: each task does this, and a disk kept busy by another tenant can hold a `mkdir`.
   */
  async replaceSkills(
    files: readonly { readonly path: string; readonly bytes: Uint8Array }[],
  ): Promise<void> {
    const root = DirectoryHandle.open(this.root);
    try {
      const reserved = await directoryReplacingOthersAsync(root, RESERVED_WORKSPACE_DIR);
      try {
        const skills = await directoryReplacingOthersAsync(reserved, 'skills');
        try {
          await skills.emptyAsync();
          for (const file of files) {
            const segments = file.path.split('/');
            const name = segments.pop() ?? '';
            const dir = await skills.openPathCreatingAsync(segments.join('/'));
            try {
              await writeWhole(await dir.createExclusiveAsync(name), file.bytes);
            } finally {
              dir.close();
            }
          }
        } finally {
          skills.close();
        }
      } finally {
        reserved.close();
      }
    } finally {
      root.close();
    }
  }

  /**
   * Reads a small state file the server keeps in its reserved folder (`.arbiter/<name>`), or null
   * when it is absent or is anything but a regular file: the agent can write there too, so a link
   * planted under the name is not followed (it could point at another tenant's file).
   */
  static readReserved(root: string, name: string): string | null {
    const workspace = new Workspace(root);
    return workspace.withRoot((handle) => {
      let reserved: DirectoryHandle;
      try {
        reserved = handle.openDirectory(RESERVED_WORKSPACE_DIR);
      } catch {
        return null;
      }
      try {
        const { fd } = reserved.openRegularFile(name);
        try {
          return fs.readFileSync(fd, 'utf8');
        } finally {
          fs.closeSync(fd);
        }
      } catch {
        return null;
      } finally {
        reserved.close();
      }
    });
  }

  /** Replaces a state file of the reserved folder without following anything planted on its way. */
  static writeReserved(root: string, name: string, text: string): void {
    const workspace = new Workspace(root);
    workspace.withRoot((handle) => {
      const reserved = directoryReplacingOthers(handle, RESERVED_WORKSPACE_DIR);
      try {
        const staging = `.${name}-${randomBytes(8).toString('hex')}`;
        const fd = reserved.createExclusive(staging);
        try {
          fs.writeFileSync(fd, text);
        } finally {
          fs.closeSync(fd);
        }
        fs.renameSync(reserved.childPath(staging), reserved.childPath(name));
      } finally {
        reserved.close();
      }
    });
  }

  /**
   * Deletes the workspace and everything in it without following anything the agent left there, on
   * the thread pool in batches (`DirectoryHandle.emptyAsync`), so a large workspace does not hold
   * the event loop.
   */
  static async remove(root: string): Promise<void> {
    let handle: DirectoryHandle;
    try {
      handle = DirectoryHandle.open(root);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    try {
      await handle.emptyAsync();
    } finally {
      handle.close();
    }
    await fs.promises.rmdir(root);
  }

  private withRoot<T>(use: (root: DirectoryHandle) => T): T {
    const root = DirectoryHandle.open(this.root);
    try {
      return use(root);
    } finally {
      root.close();
    }
  }
}

export interface WorkspaceSnapshot {
  /** Relative path → `size:mtime`. */
  readonly files: Map<string, string>;
  /** Entries that can never be artifacts (names that are not UTF-8), shown with replacement characters. */
  readonly refused: string[];
  /** The walk stopped at its entry limit: files past it are not in `files`. */
  readonly truncated: boolean;
  /**
   * The sum of the sizes of `files` (apparent sizes: a sparse file counts whole, so a quota built on
   * this errs towards counting too much). Files past a truncated walk are not in it.
   */
  readonly bytes: number;
  /**
   * Entries walked (files, folders, links, anything but the server's reserved folder's contents):
   * what the principal's file quota counts. A truncated walk stopped at its limit, so there are more.
   */
  readonly entries: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function strictUtf8(bytes: Buffer): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Writes all of `data` to `fd` on the thread pool, then closes it. */
async function writeWhole(fd: number, data: Uint8Array): Promise<void> {
  try {
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await writeFd(fd, data, written, data.length - written);
      written += bytesWritten;
    }
  } finally {
    await closeFd(fd);
  }
}

/** `directoryReplacingOthers` on the thread pool. */
async function directoryReplacingOthersAsync(
  parent: DirectoryHandle,
  name: string,
): Promise<DirectoryHandle> {
  try {
    return await parent.openDirectoryCreatingAsync(name);
  } catch (error) {
    if (!(error instanceof UntrustedEntryError)) throw error;
    await fs.promises.unlink(parent.childPath(name));
    return parent.openDirectoryCreatingAsync(name);
  }
}

/** A child directory; an entry of any other kind there (a link, a file, a FIFO) is unlinked first. */
function directoryReplacingOthers(parent: DirectoryHandle, name: string): DirectoryHandle {
  try {
    return parent.openDirectory(name, { create: true });
  } catch (error) {
    if (!(error instanceof UntrustedEntryError)) throw error;
    fs.unlinkSync(parent.childPath(name));
    return parent.openDirectory(name, { create: true });
  }
}
