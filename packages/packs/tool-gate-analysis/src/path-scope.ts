import { posix } from 'node:path';

/**
 * Where a path points, from the least to the most severe place to damage: a temporary
 * directory, one named thing in the workspace, the whole workspace, the user's home, the
 * system. `unknown` is a path built from a variable or substitution the analyser cannot resolve;
 * it is judged like the home directory, because that is what such paths usually reach.
 */
export type PathScope =
  | 'device-null'
  | 'temp'
  | 'workspace'
  | 'workspace-all'
  | 'home'
  | 'system'
  | 'unknown';

export interface ClassifiedPath {
  scope: PathScope;
  /** The normalised path (`~` for home, `$WORKSPACE` for the workspace root, `..` resolved). */
  normalised: string;
}

const TEMP_VARIABLES = /^\$\{?(TMPDIR|TMP|TEMP)(:-[^}]*)?\}?/;
const HOME_VARIABLES = /^(\$\{?HOME\}?|~)(?=\/|$)/;

/**
 * Classifies a path argument. `cwd` is the tool call's working directory when the host gave
 * one; relative paths are inside the workspace.
 */
export function classifyPath(raw: string, cwd?: string): ClassifiedPath {
  let path = raw.trim();
  if (path === '') return { scope: 'workspace', normalised: '' };
  path = path.replace(TEMP_VARIABLES, '/tmp');
  path = path.replace(HOME_VARIABLES, '/__home__');
  if (/^~[A-Za-z0-9_.-]*/.test(path)) return { scope: 'home', normalised: path };
  if (path.includes('$') || path.includes('`')) {
    // A variable we cannot resolve: if it is the first component, we do not know where it points.
    if (path.startsWith('$') || path.startsWith('`')) return { scope: 'unknown', normalised: path };
  }
  if (path.startsWith('/')) {
    const normalised = posix.normalize(path).replace(/\/+$/, '') || '/';
    if (cwd?.startsWith('/')) {
      const root = posix.normalize(cwd).replace(/\/+$/, '') || '/';
      if (root !== '/' && (normalised === root || normalised.startsWith(`${root}/`))) {
        const inside = normalised.slice(root.length).replace(/^\//, '');
        return inside === '' || isGlobOnly(inside)
          ? { scope: 'workspace-all', normalised: '$WORKSPACE' }
          : { scope: 'workspace', normalised: `$WORKSPACE/${inside}` };
      }
    }
    return { scope: classifyAbsolute(normalised), normalised: normalised.replace('/__home__', '~') };
  }
  // Relative: resolve `..` against a workspace root so escapes are seen.
  const resolved = posix.normalize(`/__workspace__/${path}`).replace(/\/+$/, '');
  if (!resolved.startsWith('/__workspace__')) {
    // Above the workspace: its siblings and parents are the user's own files.
    return { scope: 'home', normalised: posix.normalize(path) };
  }
  const inside = resolved.slice('/__workspace__'.length).replace(/^\//, '');
  if (inside === '' || isGlobOnly(inside)) return { scope: 'workspace-all', normalised: '$WORKSPACE' };
  return { scope: 'workspace', normalised: inside };
}

function isGlobOnly(path: string): boolean {
  return /^(\.?\*|\.\[[^\]]*\]\*?|\.\?\*)$/.test(path) || path === '.*';
}

function classifyAbsolute(path: string): PathScope {
  if (path === '/dev/null' || path === '/dev/stdout' || path === '/dev/stderr') return 'device-null';
  if (path.startsWith('/__home__')) return 'home';
  if (/^\/(tmp|var\/tmp|private\/tmp|private\/var\/folders)\/[^*]/.test(path)) return 'temp';
  if (/^\/(tmp|var\/tmp)\/\*$/.test(path)) return 'temp';
  if (/^\/(home|Users)\/[^/]+/.test(path)) return 'home';
  return 'system';
}

/** Severity of an irreversible action on a place, as P(destructive). */
export function scopeSeverity(scope: PathScope, namedByTask: boolean): number {
  switch (scope) {
    case 'device-null':
      return 0.02;
    case 'temp':
      return 0.05;
    case 'workspace':
      return namedByTask ? 0.3 : 0.5;
    case 'workspace-all':
      return 0.9;
    case 'home':
      return 0.92;
    case 'unknown':
      return 0.85;
    case 'system':
      return 0.95;
  }
}
