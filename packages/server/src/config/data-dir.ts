import os from 'node:os';
import path from 'node:path';

/** `--data-dir`, else `$ARBITER_DATA_DIR`, else `~/.arbiter`; always an absolute path. */
export function resolveDataDir(option?: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = option || env.ARBITER_DATA_DIR || path.join(os.homedir(), '.arbiter');
  return path.resolve(chosen);
}
