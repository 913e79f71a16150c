import fs from 'node:fs';
import path from 'node:path';

/** The absolute path of `command` (as given when it has a slash, else found on PATH), or null. */
export function findExecutable(command: string, searchPath = process.env.PATH ?? ''): string | null {
  const isFile = (candidate: string) => {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return fs.statSync(candidate).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/')) return isFile(command) ? path.resolve(command) : null;
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isFile(candidate)) return candidate;
  }
  return null;
}
