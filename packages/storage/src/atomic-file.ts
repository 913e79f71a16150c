import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';

/**
 * Writes a file so that no reader ever sees part of it: the bytes go to a fresh temporary name in
 * the same directory, which is then renamed over `target`. Several nodes share the data directory
 * (docs/deployment.md), and a reader on one of them must find either no file or the whole file,
 * never one still being written. Renaming is what gives that; the file is not fsynced first, as
 * the database is not fsynced at every commit either (`synchronous = NORMAL`): a power loss may
 * lose the last writes, never show half of one.
 */
export function writeFileAtomically(target: string, write: (temporary: string) => void): void {
  const temporary = `${target}.partial-${randomBytes(6).toString('hex')}`;
  try {
    write(temporary);
    fs.renameSync(temporary, target);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * `writeFileAtomically` for writers that are themselves asynchronous (a copy of a large file), so
 * the event loop serves other requests while the bytes move; the same guarantee holds.
 */
export async function writeFileAtomicallyAsync(
  target: string,
  write: (temporary: string) => Promise<void>,
): Promise<void> {
  const temporary = `${target}.partial-${randomBytes(6).toString('hex')}`;
  try {
    await write(temporary);
    await fsp.rename(temporary, target);
  } catch (error) {
    await fsp.rm(temporary, { force: true });
    throw error;
  }
}
