import fs from 'node:fs';
import { promisify } from 'node:util';

/** `open(2)` on the thread pool, answering the descriptor number (FileHandle would own and close it). */
const openFd = promisify(fs.open);
const closeFd = promisify(fs.close);
const fstatFd = promisify(fs.fstat);

/** How many file-system calls one walk keeps in flight: enough to be quick, few enough to leave the thread pool to others. */
export const FS_BATCH = 16;

/** Directory entries read at a time: about a millisecond of the event loop's time to take in. */
export const LIST_BATCH = 512;

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_WRONLY, O_CREAT, O_EXCL } = fs.constants;

/** Something an agent left in a workspace that the server refuses to follow or open. */
export class UntrustedEntryError extends Error {
  constructor(
    message: string,
    readonly entry: string,
  ) {
    super(message);
    this.name = 'UntrustedEntryError';
  }
}

/** One name a directory handle may be asked for: a single path component, never `.`, `..` or a separator. */
function checkName(name: string): void {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0'))
    throw new UntrustedEntryError('Not a single path component.', name);
}

/**
 * An open directory, resolved without following links. Linux has no `openat` in Node, so the handle
 * reaches its children through `/proc/self/fd/<fd>/<name>`: the kernel resolves the `<fd>` link to
 * exactly the directory that was opened (not to whatever its path names now), and `O_NOFOLLOW` refuses
 * a link in the last component. Walking one component at a time this way is the race-free confinement
 * that `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)` gives in C: an agent process that swaps a
 * directory for a symlink between two server steps cannot redirect the server outside the tree.
 */
export class DirectoryHandle {
  private closed = false;

  private constructor(readonly fd: number) {}

  /** Opens a directory the server itself owns (a workspace root); a link there is refused too. */
  static open(absolutePath: string): DirectoryHandle {
    return new DirectoryHandle(openDirectoryFd(absolutePath, absolutePath));
  }

  /** The path of a child, as the kernel resolves it beneath this exact directory. */
  childPath(name: string): string {
    checkName(name);
    return `${this.selfPath()}/${name}`;
  }

  /** This directory itself, for calls that take a path (readdir, rename targets). */
  selfPath(): string {
    if (this.closed) throw new Error('directory handle is closed');
    return `/proc/self/fd/${this.fd}`;
  }

  /** A child directory; refuses a link or any other kind of entry. `create` makes it when absent. */
  openDirectory(name: string, options: { create?: boolean } = {}): DirectoryHandle {
    const target = this.childPath(name);
    if (options.create) {
      try {
        fs.mkdirSync(target, { mode: 0o700 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    return new DirectoryHandle(openDirectoryFd(target, name));
  }

  /** `openDirectory` without `create`, on the thread pool: the event loop does not wait on the disk. */
  async openDirectoryAsync(name: string): Promise<DirectoryHandle> {
    return new DirectoryHandle(await openDirectoryFdAsync(this.childPath(name), name));
  }

  /**
   * `openDirectory` on the thread pool, `create` included: `mkdir` of the child path never follows
   * a link in its last component (it fails with EEXIST), and the open that follows refuses one.
   */
  async openDirectoryCreatingAsync(name: string): Promise<DirectoryHandle> {
    const target = this.childPath(name);
    try {
      await fs.promises.mkdir(target, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return new DirectoryHandle(await openDirectoryFdAsync(target, name));
  }

  /** `openPath` with `create`, on the thread pool; the handle answered is always a new one. */
  async openPathCreatingAsync(relative: string): Promise<DirectoryHandle> {
    let current = new DirectoryHandle(await openFd(this.selfPath(), O_RDONLY | O_DIRECTORY));
    for (const segment of relative.split('/').filter((part) => part !== '' && part !== '.')) {
      try {
        const next = await current.openDirectoryCreatingAsync(segment);
        current.close();
        current = next;
      } catch (error) {
        current.close();
        throw error;
      }
    }
    return current;
  }

  /** Walks `relative` (slash-separated) one component at a time, each checked like `openDirectory`. */
  openPath(relative: string, options: { create?: boolean } = {}): DirectoryHandle {
    let current: DirectoryHandle = this;
    for (const segment of relative.split('/').filter((part) => part !== '' && part !== '.')) {
      const next = current.openDirectory(segment, options);
      if (current !== this) current.close();
      current = next;
    }
    return current === this
      ? new DirectoryHandle(fs.openSync(this.selfPath(), O_RDONLY | O_DIRECTORY))
      : current;
  }

  /**
   * Opens a regular file for reading: `O_NOFOLLOW` refuses a link, `O_NONBLOCK` keeps a FIFO from
   * blocking the open, and `fstat` on the opened descriptor (not the name) refuses every kind of
   * entry but a regular file.
   */
  openRegularFile(name: string): { fd: number; stat: fs.Stats } {
    const fd = openNoFollow(this.childPath(name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK, name);
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) {
      fs.closeSync(fd);
      throw new UntrustedEntryError('Not a regular file.', name);
    }
    return { fd, stat };
  }

  /** `openRegularFile` on the thread pool. */
  async openRegularFileAsync(name: string): Promise<{ fd: number; stat: fs.Stats }> {
    let fd: number;
    try {
      fd = await openFd(this.childPath(name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (error) {
      throw untrustedOr(error, name);
    }
    const stat = await fstatFd(fd);
    if (!stat.isFile()) {
      await closeFd(fd);
      throw new UntrustedEntryError('Not a regular file.', name);
    }
    return { fd, stat };
  }

  /** Creates a new file that did not exist in any form (no link, FIFO or file of that name). */
  createExclusive(name: string, mode = 0o600): number {
    return openNoFollow(this.childPath(name), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, name, mode);
  }

  /** `createExclusive` on the thread pool. */
  async createExclusiveAsync(name: string, mode = 0o600): Promise<number> {
    try {
      return await openFd(this.childPath(name), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
    } catch (error) {
      throw untrustedOr(error, name);
    }
  }

  /** What an entry is, without following it. */
  kindOf(name: string): 'missing' | 'file' | 'directory' | 'other' {
    const stat = fs.lstatSync(this.childPath(name), { throwIfNoEntry: false });
    if (!stat) return 'missing';
    if (stat.isFile()) return 'file';
    if (stat.isDirectory()) return 'directory';
    return 'other';
  }

  /** Entry names as raw bytes (names need not be UTF-8) with their kinds, as `readdir` reports them. */
  entries(): fs.Dirent<Buffer>[] {
    return fs.readdirSync(this.selfPath(), { withFileTypes: true, encoding: 'buffer' });
  }

  /**
   * `entries` on the thread pool, `LIST_BATCH` entries a read: one `readdir` of a folder of a hundred
   * thousand names would build all their objects on the event loop at once when it returns.
   */
  async entriesAsync(): Promise<fs.Dirent<Buffer>[]> {
    // Node gives raw names with `encoding: 'buffer'` (names need not be UTF-8); its types omit it.
    const dir = await fs.promises.opendir(this.selfPath(), {
      encoding: 'buffer' as BufferEncoding,
      bufferSize: LIST_BATCH,
    });
    const entries: fs.Dirent<Buffer>[] = [];
    // The iterator closes the directory at its end, and on an error.
    for await (const entry of dir as AsyncIterable<fs.Dirent<Buffer>>) entries.push(entry);
    return entries;
  }

  /**
   * `empty` on the thread pool, `FS_BATCH` unlinks at a time: a workspace of a hundred thousand
   * files is removed without the event loop waiting on any of them. The same no-follow rules hold.
   */
  async emptyAsync(): Promise<void> {
    const entries = await this.entriesAsync();
    for (let start = 0; start < entries.length; start += FS_BATCH)
      await Promise.all(
        entries.slice(start, start + FS_BATCH).map((entry) => this.removeEntryAsync(entry.name)),
      );
  }

  private async removeEntryAsync(rawName: Buffer): Promise<void> {
    const rawTarget = Buffer.concat([Buffer.from(`${this.selfPath()}/`), rawName]);
    try {
      await fs.promises.unlink(rawTarget);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (code !== 'EISDIR' && code !== 'EPERM') throw error;
    }
    let child: DirectoryHandle;
    try {
      child = new DirectoryHandle(await openDirectoryFdAsync(rawTarget, rawName.toString('latin1')));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      await child.emptyAsync();
    } finally {
      child.close();
    }
    await fs.promises.rmdir(rawTarget);
  }

  /**
   * Removes everything beneath this directory without following a link: links, FIFOs and sockets are
   * unlinked (never opened), directories are opened with `O_NOFOLLOW` and emptied through their own
   * handle, so an entry swapped for a link mid-way is removed as a link.
   */
  empty(): void {
    for (const entry of this.entries()) {
      const name = entry.name.toString('latin1');
      const target = `${this.selfPath()}/${name}`;
      // The raw bytes of the name, so names that are not UTF-8 are removed too.
      const rawTarget = Buffer.concat([Buffer.from(`${this.selfPath()}/`), entry.name]);
      try {
        fs.unlinkSync(rawTarget);
        continue;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') continue;
        if (code !== 'EISDIR' && code !== 'EPERM') throw error;
      }
      let child: DirectoryHandle;
      try {
        child = new DirectoryHandle(openDirectoryFd(rawTarget, target));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      try {
        child.empty();
      } finally {
        child.close();
      }
      fs.rmdirSync(rawTarget);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
  }
}

function openNoFollow(target: fs.PathLike, flags: number, name: string, mode?: number): number {
  try {
    return fs.openSync(target, flags, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP is O_NOFOLLOW meeting a link; ENXIO is O_NONBLOCK|O_WRONLY meeting a FIFO without readers.
    if (code === 'ELOOP' || code === 'ENXIO')
      throw new UntrustedEntryError('The entry is a link or special file.', name);
    throw error;
  }
}

/** ELOOP is O_NOFOLLOW meeting a link; ENXIO is O_NONBLOCK|O_WRONLY meeting a FIFO without readers. */
function untrustedOr(error: unknown, name: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ELOOP' || code === 'ENXIO'
    ? new UntrustedEntryError('The entry is a link or special file.', name)
    : error;
}

async function openDirectoryFdAsync(target: fs.PathLike, name: string): Promise<number> {
  try {
    return await openFd(target, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR')
      throw new UntrustedEntryError('The entry is a link or not a directory.', name);
    throw error;
  }
}

function openDirectoryFd(target: fs.PathLike, name: string): number {
  try {
    return fs.openSync(target, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR')
      throw new UntrustedEntryError('The entry is a link or not a directory.', name);
    throw error;
  }
}

/** Whether this platform resolves `/proc/self/fd/<fd>` to the open directory (Linux). */
export const DIRECTORY_HANDLES_SUPPORTED = fs.existsSync('/proc/self/fd');
