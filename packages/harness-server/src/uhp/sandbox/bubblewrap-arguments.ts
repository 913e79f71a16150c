import fs from 'node:fs';
import path from 'node:path';
import type { ProcessLimits } from './sandbox-config.js';
import { type LimitSetter, limitedProgram } from './sandbox-limits.js';

/** The PATH of every sandboxed process: the system directories, which are all it can see. */
export const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Top-level system directories: programs and their libraries. Merged-/usr systems make most links. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * The files of /etc that programs need to run (the dynamic linker, name lookup, TLS roots, time zone,
 * Debian's alternatives). Not the rest: /etc holds host secrets (shadow, ssh keys, credentials).
 */
export const ETC_ENTRIES = [
  'alternatives',
  'ca-certificates',
  'ca-certificates.conf',
  'group',
  'host.conf',
  'hosts',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'localtime',
  'mime.types',
  'nsswitch.conf',
  'passwd',
  'protocols',
  'resolv.conf',
  'services',
  'ssl',
];

/** How the system is shown read-only inside the sandbox, worked out once from the host. */
export type SystemViewEntry =
  | { readonly kind: 'bind'; readonly path: string }
  | { readonly kind: 'symlink'; readonly path: string; readonly target: string };

export function hostSystemView(root = '/'): SystemViewEntry[] {
  const entries: SystemViewEntry[] = [];
  const add = (hostPath: string) => {
    const stat = fs.lstatSync(path.join(root, hostPath), { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isSymbolicLink())
      entries.push({ kind: 'symlink', path: hostPath, target: fs.readlinkSync(path.join(root, hostPath)) });
    else entries.push({ kind: 'bind', path: hostPath });
  };
  for (const dir of SYSTEM_DIRS) add(dir);
  for (const name of ETC_ENTRIES) add(`/etc/${name}`);
  return entries;
}

/** Who the sandboxed program is on the host. */
export type SandboxIdentity =
  /** The server is root: bwrap sets up as root, then setpriv drops to an unprivileged id and every capability. */
  | { readonly kind: 'drop-root'; readonly uid: number; readonly gid: number; readonly setpriv: string }
  /** The server is unprivileged: a user namespace, in which the program keeps the server's id. */
  | { readonly kind: 'user-namespace'; readonly disableNestedUserNamespaces: boolean };

export interface BubblewrapSpec {
  readonly systemView: readonly SystemViewEntry[];
  readonly identity: SandboxIdentity;
  /** What sets the program's rlimits inside the sandbox (its /bin/sh, or util-linux prlimit). */
  readonly limitSetter: LimitSetter;
  /** The only writable host directory; also the working directory and HOME. */
  readonly workspace: string;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly network: boolean;
  readonly readOnlyPaths: readonly string[];
  readonly writablePaths: readonly string[];
  readonly limits: ProcessLimits;
  /**
   * A staged copy of the allow-listed /etc entries (`StagedEtc`), mounted read-only at /etc in one
   * bind instead of one bind per entry. Without it, or when another mount lies under /etc, each
   * entry of the system view under /etc is bound by name.
   */
  readonly stagedEtc?: string | null;
}

const MIB = 1024 * 1024;

/**
 * The bwrap argument list for one sandboxed program. Principle: deny by default. The sandbox starts
 * from an empty root and gets only the system view, a fresh /proc and /dev, a private /tmp and the
 * workspace; new PID, IPC, UTS, cgroup (and unless allowed, network) namespaces; an environment
 * built from nothing; hard rlimits; and a program that is not root on the host.
 */
export function bubblewrapArguments(spec: BubblewrapSpec): string[] {
  const args = [
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(spec.network ? [] : ['--unshare-net']),
    // A new session: the program cannot push input into the server's terminal (TIOCSTI).
    '--new-session',
    '--die-with-parent',
    '--hostname',
    'sandbox',
  ];
  if (spec.identity.kind === 'drop-root')
    // setpriv needs these to change ids and empty the bounding set, and bwrap to enter a workspace
    // owned by the sandbox's id; setpriv drops them all before the program starts.
    args.push(
      '--cap-drop',
      'ALL',
      '--cap-add',
      'CAP_DAC_READ_SEARCH',
      '--cap-add',
      'CAP_SETUID',
      '--cap-add',
      'CAP_SETGID',
      '--cap-add',
      'CAP_SETPCAP',
    );
  else {
    args.push('--unshare-user', '--cap-drop', 'ALL');
    if (spec.identity.disableNestedUserNamespaces) args.push('--disable-userns');
  }
  args.push('--clearenv');
  for (const [name, value] of Object.entries(spec.env)) args.push('--setenv', name, value);
  // Directories bwrap makes on the way to a mount point would be private to root: each is made here,
  // empty and searchable, so the program can reach what is mounted beneath it by its host path.
  const made = new Set<string>(['/tmp']);
  const parentsOf = (target: string) => {
    for (const parent of ancestors(target))
      if (!made.has(parent)) {
        made.add(parent);
        args.push('--perms', '0755', '--dir', parent);
      }
  };
  const underEtc = (hostPath: string) => hostPath.startsWith('/etc/');
  const stagedEtc =
    spec.stagedEtc &&
    ![...spec.readOnlyPaths, ...spec.writablePaths, spec.workspace].some((hostPath) => underEtc(hostPath))
      ? spec.stagedEtc
      : null;
  if (stagedEtc) {
    made.add('/etc');
    args.push('--ro-bind', stagedEtc, '/etc');
  }
  for (const entry of spec.systemView) {
    if (stagedEtc && underEtc(entry.path)) continue;
    parentsOf(entry.path);
    if (entry.kind === 'symlink') args.push('--symlink', entry.target, entry.path);
    else args.push('--ro-bind', entry.path, entry.path);
  }
  args.push('--proc', '/proc', '--dev', '/dev');
  args.push('--perms', '1777', '--size', String(spec.limits.tmpMiB * MIB), '--tmpfs', '/tmp');
  for (const hostPath of spec.readOnlyPaths) {
    parentsOf(hostPath);
    args.push('--ro-bind', hostPath, hostPath);
  }
  for (const hostPath of spec.writablePaths) {
    parentsOf(hostPath);
    args.push('--bind', hostPath, hostPath);
  }
  // The workspace keeps its host path: agents report absolute paths, and the server maps them back.
  parentsOf(spec.workspace);
  args.push('--bind', spec.workspace, spec.workspace, '--chdir', spec.workspace);
  args.push('--');
  if (spec.identity.kind === 'drop-root')
    args.push(
      spec.identity.setpriv,
      `--reuid=${spec.identity.uid}`,
      `--regid=${spec.identity.gid}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--no-new-privs',
      '--',
    );
  args.push(...limitedProgram(spec.limitSetter, spec.limits, spec.argv));
  return args;
}

/** `/a/b/c` → `/a`, `/a/b` (not `/`, not the path itself). */
function ancestors(target: string): string[] {
  const result: string[] = [];
  let current = path.dirname(target);
  while (current !== '/' && current !== '.') {
    result.unshift(current);
    current = path.dirname(current);
  }
  return result;
}
