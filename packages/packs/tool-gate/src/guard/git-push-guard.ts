import { execFileSync } from 'node:child_process';
import { segmentShellCommand } from '../policy/shell-segments.js';
import { GIT_GLOBAL_OPTIONS_WITH_VALUE } from './git-global-options.js';
import { splitShellWords } from './shell-words.js';

export const DEFAULT_PROTECTED_BRANCHES: readonly string[] = Object.freeze(['main', 'master', 'release/*']);

export type GitPushViolationKind = 'force' | 'protected-branch' | 'unknown-remote' | 'mirror' | 'unparsed';

export interface GitPushViolation {
  readonly kind: GitPushViolationKind;
  readonly message: string;
}

export interface GitPushGuardResult {
  readonly allowed: boolean;
  readonly violations: readonly GitPushViolation[];
}

export interface GitPushGuardOptions {
  /** The argv of one git invocation (`['git', 'push', …]` or `['push', …]`). */
  readonly argv?: readonly string[];
  /** Or a shell command line: every `git push` in it is checked. */
  readonly command?: string;
  /** The repository the push runs in. */
  readonly cwd: string;
  /** Branch names or `*` patterns that may not be pushed to. Default main, master, release/*. */
  readonly protectedBranches?: readonly string[];
  /** Configured remotes (name → URLs); default: read with `git remote -v` in `cwd`. */
  readonly remotes?: Readonly<Record<string, readonly string[]>>;
}

/** git options that take a separate value argument (`--repo x`, `-o x`). */
const PUSH_OPTIONS_WITH_VALUE = new Set([
  '--repo',
  '--push-option',
  '-o',
  '--receive-pack',
  '--exec',
  '--signed',
]);

/**
 * Rule 7 of the tool gate: a protection inside the shell tool that still applies after an ALLOW.
 * Refuses `git push` with force in any spelling (`-f`, `--force`, `--force-with-lease`, `+refspec`,
 * `--mirror`), pushes to protected branches (named, deleted, or the implicit current branch),
 * and pushes to remotes or URLs that are not configured in the repository.
 *
 * @example
 * guardGitPush({ command: 'git push -f origin main', cwd: repo }).allowed; // false
 */
export function guardGitPush(options: GitPushGuardOptions): GitPushGuardResult {
  const invocations: (readonly string[] | null)[] = [];
  if (options.argv !== undefined) invocations.push(options.argv);
  if (options.command !== undefined) {
    for (const segment of segmentShellCommand(options.command).segments) {
      if (!/\bgit\b/.test(segment) || !/\bpush\b/.test(segment)) continue;
      invocations.push(splitShellWords(segment));
    }
  }
  const protectedBranches = options.protectedBranches ?? DEFAULT_PROTECTED_BRANCHES;
  let remotes = options.remotes;
  const violations: GitPushViolation[] = [];
  for (const words of invocations) {
    if (words === null) {
      violations.push({
        kind: 'unparsed',
        message: 'a git push command could not be read (unbalanced quotes)',
      });
      continue;
    }
    const push = pushArguments(words);
    if (push === null) continue;
    remotes ??= readRemotes(options.cwd);
    violations.push(...checkPush(push, { cwd: options.cwd, protectedBranches, remotes }));
  }
  return { allowed: violations.length === 0, violations };
}

/** The arguments after `push` when the words are a git push invocation, else null. */
function pushArguments(words: readonly string[]): string[] | null {
  let index = 0;
  // Leading assignments and wrappers (`env`, `sudo`, absolute paths) do not change what git does.
  while (index < words.length && /^[A-Za-z_]\w*=/.test(words[index]!)) index++;
  while (index < words.length && /(^|\/)(sudo|env|command|exec|nohup|time)$/.test(words[index]!)) index++;
  if (index >= words.length) return null;
  if (words[index] !== 'push') {
    if (!/(^|\/)git$/.test(words[index]!)) return null;
    index++;
    while (index < words.length && words[index]!.startsWith('-')) {
      const option = words[index]!;
      index += GIT_GLOBAL_OPTIONS_WITH_VALUE.has(option) ? 2 : 1;
    }
    if (words[index] !== 'push') return null;
  }
  return words.slice(index + 1);
}

interface PushContext {
  readonly cwd: string;
  readonly protectedBranches: readonly string[];
  readonly remotes: Readonly<Record<string, readonly string[]>>;
}

function checkPush(args: readonly string[], context: PushContext): GitPushViolation[] {
  const violations: GitPushViolation[] = [];
  const positionals: string[] = [];
  let deleting = false;
  let all = false;
  let repository: string | null = null;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--') {
      positionals.push(...args.slice(index + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const [name, value] = splitLongOption(arg);
      if (name === '--force' || name === '--force-with-lease' || name === '--force-if-includes') {
        violations.push({ kind: 'force', message: `force push (${arg}) is not allowed` });
      } else if (name === '--mirror') {
        violations.push({ kind: 'mirror', message: '--mirror overwrites and deletes every remote ref' });
      } else if (name === '--delete') {
        deleting = true;
      } else if (name === '--all' || name === '--branches') {
        all = true;
      } else if (name === '--repo') {
        repository = value ?? args[++index] ?? null;
      } else if (value === undefined && PUSH_OPTIONS_WITH_VALUE.has(name)) {
        index++;
      }
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      for (let position = 1; position < arg.length; position++) {
        const flag = arg[position];
        if (flag === 'f') violations.push({ kind: 'force', message: `force push (${arg}) is not allowed` });
        else if (flag === 'd') deleting = true;
        else if (flag === 'o') {
          if (position === arg.length - 1) index++;
          break;
        }
      }
      continue;
    }
    positionals.push(arg);
  }
  if (positionals.length > 0 && repository === null) repository = positionals.shift() ?? null;
  if (repository !== null) {
    const unknown = unknownRemote(repository, context.remotes);
    if (unknown !== null) violations.push(unknown);
  }
  const destinations: string[] = [];
  if (all) destinations.push(...localBranches(context.cwd));
  if (positionals.length === 0 && !all) {
    const current = currentBranch(context.cwd);
    if (current !== null) destinations.push(current);
  }
  for (const refspec of positionals) {
    if (refspec.startsWith('+')) {
      violations.push({ kind: 'force', message: `force push by refspec ${refspec} is not allowed` });
    }
    const spec = refspec.replace(/^\+/, '');
    const colon = spec.indexOf(':');
    const source = colon === -1 ? spec : spec.slice(0, colon);
    let destination = colon === -1 ? spec : spec.slice(colon + 1);
    if (destination === 'HEAD' || (colon === -1 && source === 'HEAD'))
      destination = currentBranch(context.cwd) ?? destination;
    destinations.push(destination);
  }
  for (const destination of destinations) {
    const branch = destination.replace(/^refs\/heads\//, '');
    if (isProtected(branch, context.protectedBranches)) {
      const verb = deleting ? 'deleting' : 'pushing to';
      violations.push({
        kind: 'protected-branch',
        message: `${verb} the protected branch ${branch} is not allowed`,
      });
    }
  }
  return violations;
}

/** Checks the refs git hands a pre-push hook: `<local ref> <local sha> <remote ref> <remote sha>` per line. */
export function guardPrePush(options: {
  readonly remoteName: string;
  readonly remoteUrl: string;
  readonly updates: string;
  readonly cwd: string;
  readonly protectedBranches?: readonly string[];
  readonly remotes?: Readonly<Record<string, readonly string[]>>;
}): GitPushGuardResult {
  const protectedBranches = options.protectedBranches ?? DEFAULT_PROTECTED_BRANCHES;
  const remotes = options.remotes ?? readRemotes(options.cwd);
  const violations: GitPushViolation[] = [];
  const configured = Object.hasOwn(remotes, options.remoteName) ? remotes[options.remoteName] : undefined;
  if (configured === undefined || !configured.includes(options.remoteUrl)) {
    const byUrl = unknownRemote(options.remoteUrl, remotes);
    if (byUrl !== null) violations.push(byUrl);
  }
  for (const line of options.updates.split('\n')) {
    if (line.trim() === '') continue;
    const [localRef, localSha, remoteRef, remoteSha] = line.trim().split(/\s+/);
    if (
      localRef === undefined ||
      localSha === undefined ||
      remoteRef === undefined ||
      remoteSha === undefined
    ) {
      violations.push({ kind: 'unparsed', message: `pre-push line not understood: ${JSON.stringify(line)}` });
      continue;
    }
    const branch = remoteRef.replace(/^refs\/heads\//, '');
    if (isProtected(branch, protectedBranches)) {
      const verb = /^0+$/.test(localSha) ? 'deleting' : 'pushing to';
      violations.push({
        kind: 'protected-branch',
        message: `${verb} the protected branch ${branch} is not allowed`,
      });
    }
    if (!/^0+$/.test(remoteSha) && !/^0+$/.test(localSha) && !isAncestor(options.cwd, remoteSha, localSha)) {
      violations.push({
        kind: 'force',
        message: `${remoteRef} would move to a commit that does not contain the remote's ${remoteSha.slice(0, 12)} (force push)`,
      });
    }
  }
  return { allowed: violations.length === 0, violations };
}

function unknownRemote(
  repository: string,
  remotes: Readonly<Record<string, readonly string[]>>,
): GitPushViolation | null {
  if (Object.hasOwn(remotes, repository)) return null;
  const known = Object.values(remotes).some((urls) => urls.includes(repository));
  return known
    ? null
    : { kind: 'unknown-remote', message: `${repository} is not a configured remote of this repository` };
}

function isProtected(branch: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) =>
    pattern.includes('*')
      ? new RegExp(
          `^${pattern
            .split('*')
            .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
            .join('.*')}$`,
        ).test(branch)
      : pattern === branch,
  );
}

function splitLongOption(arg: string): [string, string | undefined] {
  const equals = arg.indexOf('=');
  return equals === -1 ? [arg, undefined] : [arg.slice(0, equals), arg.slice(equals + 1)];
}

/** `git remote -v` as name → URLs (fetch and push). */
export function readRemotes(cwd: string): Record<string, string[]> {
  // A map keyed by remote names the repository chose: a remote may be called `constructor`.
  const remotes = new Map<string, string[]>();
  const output = git(cwd, ['remote', '-v']) ?? '';
  for (const line of output.split('\n')) {
    const [name, url] = line.split(/\s+/);
    if (name === undefined || url === undefined || name === '') continue;
    const urls = remotes.get(name) ?? [];
    if (!urls.includes(url)) urls.push(url);
    remotes.set(name, urls);
  }
  return Object.fromEntries(remotes);
}

function currentBranch(cwd: string): string | null {
  return git(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD'])?.trim() || null;
}

function localBranches(cwd: string): string[] {
  const output = git(cwd, ['for-each-ref', '--format=%(refname:short)', 'refs/heads']) ?? '';
  return output.split('\n').filter((line) => line !== '');
}

function isAncestor(cwd: string, ancestor: string, descendant: string): boolean {
  return git(cwd, ['merge-base', '--is-ancestor', ancestor, descendant]) !== null;
}

/** Runs git; null when it exits non-zero (not a repository, unknown object, not an ancestor). */
function git(cwd: string, args: readonly string[]): string | null {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}
