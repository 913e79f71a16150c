// Built-ins come from `process.getBuiltinModule`, not `import`: this module runs in every forwarded
// hook, and the ESM facade of `node:fs` evaluates its lazy getters (streams, fs/promises), a fifth
// of such a hook's CPU (bench/gate-hook-cpu.mjs).
const { lstatSync, mkdirSync } = process.getBuiltinModule('node:fs');
const { tmpdir } = process.getBuiltinModule('node:os');
const { join } = process.getBuiltinModule('node:path');

/** Environment variables that change what a `gate hook` invocation does (besides its arguments). */
const RELEVANT_ENVIRONMENT = /^(ARBITER_|HOME$|XDG_CONFIG_HOME$|XDG_STATE_HOME$|XDG_DATA_HOME$)/;
/** Unix socket paths are limited to about 107 bytes (sun_path). */
const MAX_SOCKET_PATH = 100;

export interface GateDaemonAddress {
  /** The Unix socket the daemon listens on. */
  readonly socket: string;
  /** The daemon's process id, written when it listens: for `arbiter gate daemon` tools and benches. */
  readonly pidFile: string;
}

/**
 * The daemon serving hook calls made from `cwd` with this environment. A daemon is shared only by
 * invocations that would behave identically in a fresh process: the same CLI, Node, working
 * directory (relative paths in options) and relevant environment (task, keys, home). The socket
 * lives in a directory only this user can enter; null when no such directory can be had, and
 * the hook then runs in its own process.
 */
export function gateDaemonAddress(
  cliDirectory: string,
  cwd: string,
  environment: NodeJS.ProcessEnv,
): GateDaemonAddress | null {
  const directory = privateRuntimeDirectory(environment);
  if (directory === null) return null;
  const relevant = Object.entries(environment)
    .filter(([name]) => RELEVANT_ENVIRONMENT.test(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // A hash, so the values (API keys among them) are not readable from the file name.
  const key = fnv1a64(JSON.stringify([cliDirectory, process.execPath, process.version, cwd, relevant]));
  const socket = join(directory, `gate-${key}.sock`);
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) return null;
  return { socket, pidFile: join(directory, `gate-${key}.pid`) };
}

/**
 * `$XDG_RUNTIME_DIR/arbiter` or `<tmp>/arbiter-<uid>`, created mode 0700. Refused unless it is a
 * real directory (not a symbolic link) owned by this user that nobody else can enter: another
 * user's socket there could otherwise answer our hooks.
 */
function privateRuntimeDirectory(environment: NodeJS.ProcessEnv): string | null {
  const uid = process.getuid?.();
  if (uid === undefined) return null; // Windows: no Unix sockets with owner-only permissions.
  const runtime = environment.XDG_RUNTIME_DIR;
  const directory = runtime ? join(runtime, 'arbiter') : join(tmpdir(), `arbiter-${uid}`);
  try {
    mkdirSync(directory, { mode: 0o700, recursive: true });
    const stat = lstatSync(directory);
    if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return null;
    return directory;
  } catch {
    // Unwritable or missing runtime directory: no daemon, the hook runs in its own process.
    return null;
  }
}

/**
 * 64-bit FNV-1a as 16 hex digits. Not node:crypto: loading that module is a measurable share of a
 * forwarded hook's CPU (bench/gate-hook-cpu.mjs), and the name needs no collision resistance
 * against an attacker: only this user can create or list sockets in the directory.
 */
export function fnv1a64(text: string): string {
  let high = 0xcbf29ce4;
  let low = 0x84222325;
  for (let index = 0; index < text.length; index++) {
    low = (low ^ text.charCodeAt(index)) >>> 0;
    // Multiply the 64-bit state by the FNV prime 2^40 + 0x1b3, in two 32-bit halves.
    const lowProduct = low * 0x1b3;
    const carry = Math.floor(lowProduct / 0x1_0000_0000);
    high = (Math.imul(high, 0x1b3) + Math.imul(low, 0x100) + carry) >>> 0;
    low = lowProduct >>> 0;
  }
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}
