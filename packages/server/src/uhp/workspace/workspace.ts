import fs from 'node:fs';
import path from 'node:path';

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
 * root and refused when it leaves it, including through symlinks that point outside.
 */
export class Workspace {
  readonly root: string;

  constructor(root: string) {
    fs.mkdirSync(root, { recursive: true, mode: 0o700 });
    this.root = fs.realpathSync(root);
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

  private contains(candidate: string): boolean {
    return candidate === this.root || candidate.startsWith(this.root + path.sep);
  }

  /** Files under the root (excluding the server's reserved folder) with size and mtime, relative paths. */
  snapshot(): Map<string, string> {
    const seen = new Map<string, string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        const relative = path.relative(this.root, full);
        if (relative === RESERVED_WORKSPACE_DIR) continue;
        if (entry.isDirectory()) walk(full);
        else if (entry.isFile()) {
          const stat = fs.statSync(full);
          seen.set(relative.split(path.sep).join('/'), `${stat.size}:${stat.mtimeMs}`);
        }
      }
    };
    walk(this.root);
    return seen;
  }
}
