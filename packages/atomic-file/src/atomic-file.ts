import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';

/**
 * Writing a file so that no reader ever sees part of it, stated once for every package (the
 * server's stored blobs, the CLI's settings, the tool gate's caches and queue, the model cache's
 * manifests, the UHP client's saved keys). The bytes go to a fresh temporary name in the same
 * directory, so the rename that then replaces `target` never crosses a file system and is atomic:
 * a reader, on this machine or on another node sharing the directory, finds the old file or the
 * new one, never one still being written. On failure the temporary file is removed and the old
 * file is left as it was.
 */

export interface AtomicWriteOptions {
  /**
   * The new file's permission bits, set exactly (the umask does not narrow them), before any byte
   * is written: 0o600 for a file that holds secrets. Without it, a new file's default (0o666 less
   * the umask), as `fs.writeFile` gives.
   */
  readonly mode?: number;
}

/** A fresh name beside `target`: the same directory, hence the same file system. */
function temporaryBeside(target: string): string {
  return `${target}.partial-${randomBytes(6).toString('hex')}`;
}

/**
 * Replaces `target` with `data`. The temporary file is created exclusively (`wx`: a link planted
 * under its name is never written through) and fsynced before the rename, so after a crash the
 * target holds the old contents or the new ones, not an empty file. The directory is not fsynced:
 * a crash may lose the rename, never show half a file.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  await replaceFileAtomic(target, async (temporary) => {
    const handle = await fsp.open(temporary, 'wx', options.mode ?? 0o666);
    try {
      if (options.mode !== undefined) await handle.chmod(options.mode);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  });
}

/**
 * `writeFileAtomic` for callers that must not yield to the event loop: a write under a file lock
 * held synchronously (the tool gate's report queue), or a synchronous API (the model cache).
 */
export function writeFileAtomicSync(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): void {
  replaceFileAtomicSync(target, (temporary) => {
    const fd = fs.openSync(temporary, 'wx', options.mode ?? 0o666);
    try {
      if (options.mode !== undefined) fs.fchmodSync(fd, options.mode);
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  });
}

/**
 * Replaces `target` with whatever `write` puts at the temporary path it is given, for writers that
 * produce the bytes themselves (a copy of a large file, streamed so the event loop serves other
 * requests meanwhile). The writer's bytes are not fsynced here: the server stores such files as
 * its database commits (`synchronous = NORMAL`), where a power loss may lose the last writes but
 * never shows half of one.
 */
export async function replaceFileAtomic(
  target: string,
  write: (temporary: string) => Promise<void>,
): Promise<void> {
  const temporary = temporaryBeside(target);
  try {
    await write(temporary);
    await fsp.rename(temporary, target);
  } catch (error) {
    await fsp.rm(temporary, { force: true });
    throw error;
  }
}

/** `replaceFileAtomic` for a synchronous writer. */
export function replaceFileAtomicSync(target: string, write: (temporary: string) => void): void {
  const temporary = temporaryBeside(target);
  try {
    write(temporary);
    fs.renameSync(temporary, target);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
