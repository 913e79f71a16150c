import { readFile } from 'node:fs/promises';
import { readStandardInput } from '../standard-input.js';
import { UsageError } from './usage-error.js';

/** Reads a file, or standard input for `-`; a missing file is a usage error naming the flag. */
export async function readInput(pathOrDash: string, flag: string): Promise<string> {
  if (pathOrDash === '-') return readStandardInput();
  try {
    return await readFile(pathOrDash, 'utf8');
  } catch (error) {
    throw new UsageError(
      `${flag}: cannot read ${pathOrDash}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}
