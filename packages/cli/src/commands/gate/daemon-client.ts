import {
  type GateDaemonRequest,
  type GateDaemonResponse,
  isGateDaemonResponse,
  MAX_GATE_DAEMON_REQUEST_BYTES,
} from './daemon-protocol.js';
import { type GateDaemonAddress, gateDaemonAddress } from './daemon-socket.js';

// Built-ins via `process.getBuiltinModule`: see gate-daemon-socket.ts.
const { readFileSync, writeSync } = process.getBuiltinModule('node:fs');
const { connect } = process.getBuiltinModule('node:net');

/** How long a hook waits for the daemon's answer before judging the call itself. */
const DAEMON_ANSWER_TIMEOUT_MS = 10_000;

export type ForwardedGateHook =
  | { readonly handled: true }
  /** Not forwarded: the hook runs in this process, with the standard input when it was read here. */
  | { readonly handled: false; readonly stdin: string | undefined };

/**
 * Hands a `gate hook` invocation to the warm gate daemon for this directory and environment, and
 * writes its answer as if this process had computed it. When no daemon answers, one is started in
 * the background for the next call and this call runs in-process: a hook never waits for a
 * daemon to start, and never fails because of one.
 */
export async function forwardGateHook(argv: readonly string[]): Promise<ForwardedGateHook> {
  let stdin: string;
  try {
    stdin = await readWholeStdin();
  } catch {
    // The in-process run reads standard input itself, and answers `ask` if it cannot.
    return { handled: false, stdin: undefined };
  }
  let answer: DaemonAnswer;
  try {
    const address = gateDaemonAddress(import.meta.dirname, process.cwd(), process.env);
    if (address === null || Buffer.byteLength(stdin) > MAX_GATE_DAEMON_REQUEST_BYTES / 2) {
      return { handled: false, stdin };
    }
    answer = await askDaemon(address.socket, { argv, stdin });
    // No daemon, or one that stepped down (its code changed on disk): start a fresh one.
    const stale = answer.kind === 'answered' && !answer.response.ok && answer.response.reason === 'stale';
    if (answer.kind === 'absent' || stale) await startDaemon(address);
  } catch {
    // The daemon only saves work (a deleted working directory, a failed spawn…): whatever goes
    // wrong on the way to it, the hook judges the call itself, so the host never sees a crash.
    return { handled: false, stdin };
  }
  if (answer.kind !== 'answered' || !answer.response.ok) return { handled: false, stdin };
  writeOut(1, answer.response.stdout);
  writeOut(2, answer.response.stderr);
  process.exitCode = answer.response.exitCode;
  return { handled: true };
}

type DaemonAnswer =
  | { kind: 'answered'; response: GateDaemonResponse }
  | { kind: 'absent' }
  | { kind: 'failed'; reason: string };

function askDaemon(socketPath: string, request: GateDaemonRequest): Promise<DaemonAnswer> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ kind: 'failed', reason: 'timeout' });
    }, DAEMON_ANSWER_TIMEOUT_MS);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const absent = error.code === 'ENOENT' || error.code === 'ECONNREFUSED';
      resolve(absent ? { kind: 'absent' } : { kind: 'failed', reason: error.message });
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      clearTimeout(timer);
      let response: unknown;
      try {
        response = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        response = undefined;
      }
      resolve(
        isGateDaemonResponse(response)
          ? { kind: 'answered', response }
          : { kind: 'failed', reason: 'unreadable answer' },
      );
    });
    socket.end(`${JSON.stringify(request)}\n`);
  });
}

/**
 * Standard input with one blocking read: a hook's input is a pipe the host closes after writing,
 * and setting up `process.stdin` as a stream costs more CPU than the whole forwarded call.
 */
async function readWholeStdin(): Promise<string> {
  try {
    return readFileSync(0, 'utf8');
  } catch (error) {
    // A non-blocking descriptor (EAGAIN) needs the stream; nothing has been consumed yet.
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    const { readStandardInput } = await import('../../standard-input.js');
    return readStandardInput();
  }
}

/**
 * Writes to standard output or error with blocking writes: creating `process.stdout` costs more
 * than the rest of a forwarded hook. A non-blocking descriptor (EAGAIN) gets the stream.
 */
function writeOut(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(fd, bytes, written);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(written));
  }
}

/** Once per missing daemon, so node:child_process is loaded only then. */
async function startDaemon(address: GateDaemonAddress): Promise<void> {
  const launcher = process.argv[1];
  if (launcher === undefined) return;
  const { spawn } = await import('node:child_process');
  const child = spawn(
    process.execPath,
    [launcher, 'gate', 'daemon', '--socket', address.socket, '--pid-file', address.pidFile],
    { detached: true, stdio: 'ignore', cwd: process.cwd(), env: process.env },
  );
  // A daemon that cannot start only means the next hook also runs in its own process.
  child.on('error', () => {});
  child.unref();
}
