import { statSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { inputOf, invocationIo, withInvocationIo } from '../../invocation-io.js';
import type { InvocationRunner } from '../../program-settings.js';
import {
  type GateDaemonResponse,
  isGateDaemonRequest,
  MAX_GATE_DAEMON_REQUEST_BYTES,
} from './daemon-protocol.js';

export interface GateDaemonOptions {
  /** Runs one forwarded invocation as `arbiter` would (injected: this module must not import the program). */
  readonly runInvocation: InvocationRunner;
  readonly socket: string;
  readonly pidFile?: string;
  /** Exit after this long without a call. */
  readonly idleTimeoutMs: number;
}

/** A benign call judged once at start, so the first forwarded hook finds everything loaded. */
const WARM_UP_INPUT = JSON.stringify({
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'git status' },
  cwd: process.cwd(),
});

/**
 * `arbiter gate daemon`: serves `gate hook` invocations from hook processes over a Unix socket,
 * each exactly as `arbiter` would run it (same argument parsing, output and exit code), with the
 * gate, the shell parser and the compiled WebAssembly already warm. It steps down when its code
 * changes on disk, when another daemon holds the socket, and after `idleTimeoutMs` without calls.
 */
export async function runGateDaemon(options: GateDaemonOptions): Promise<void> {
  const run = options.runInvocation;
  await judgeQuietly(run, ['gate', 'hook', 'claude-code'], WARM_UP_INPUT);
  const fingerprint = codeFingerprint();
  const server = createServer({ allowHalfOpen: true });
  let idleTimer: NodeJS.Timeout | undefined;
  const resetIdleTimer = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => stepDown(), options.idleTimeoutMs);
  };
  const stepDown = () => {
    clearTimeout(idleTimer);
    server.close();
    removeFile(options.pidFile);
  };
  server.on('connection', (socket) => {
    resetIdleTimer();
    // A hook process that goes away mid-call (killed by its host's timeout) needs no answer.
    socket.on('error', () => socket.destroy());
    serveConnection(socket, run, () => {
      if (codeFingerprint() === fingerprint) return null;
      stepDown();
      return 'stale';
    }).catch((error: unknown) => {
      socket.destroy();
      invocationIo().writeStderr(
        `arbiter gate daemon: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    });
  });
  if (!(await listen(server, options.socket))) return; // another daemon serves this socket
  process.once('SIGTERM', stepDown);
  process.once('SIGINT', stepDown);
  if (options.pidFile) writeFileSync(options.pidFile, `${process.pid}\n`, { mode: 0o600 });
  resetIdleTimer();
  await new Promise<void>((resolve) => server.on('close', resolve));
}

async function serveConnection(
  socket: Socket,
  run: InvocationRunner,
  refusal: () => string | null,
): Promise<void> {
  const text = await readRequest(socket);
  if (text === null) return answer(socket, { ok: false, reason: 'too large' });
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return answer(socket, { ok: false, reason: 'unreadable request' });
  }
  if (!isGateDaemonRequest(request)) return answer(socket, { ok: false, reason: 'not a gate hook call' });
  const refused = refusal();
  if (refused !== null) return answer(socket, { ok: false, reason: refused });
  answer(socket, await judge(run, request.argv, request.stdin));
}

/**
 * The request: everything the hook wrote before ending its side. Not `for await`: that destroys
 * the socket at the end of the input, before the answer could be written back.
 */
function readRequest(socket: Socket): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_GATE_DAEMON_REQUEST_BYTES) {
        socket.pause();
        resolve(null);
      } else chunks.push(chunk);
    });
    socket.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function answer(socket: Socket, response: GateDaemonResponse): void {
  socket.end(`${JSON.stringify(response)}\n`);
}

/** One invocation with its own standard streams, as the CLI would run it. */
async function judge(
  run: InvocationRunner,
  argv: readonly string[],
  stdin: string,
): Promise<GateDaemonResponse> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdin: () => inputOf(stdin),
    writeStdout: (text: string) => {
      stdout += text;
    },
    writeStderr: (text: string) => {
      stderr += text;
    },
    // The hook's streams reach the daemon through a socket; its hosts run it on pipes.
    isTerminal: () => false,
    ownsProcess: false,
  };
  const exitCode = await withInvocationIo(io, () =>
    run(argv, { exitOverride: true, output: { writeOut: io.writeStdout, writeErr: io.writeStderr } }),
  );
  return { ok: true, exitCode: exitCode ?? 0, stdout, stderr };
}

async function judgeQuietly(run: InvocationRunner, argv: readonly string[], stdin: string): Promise<void> {
  const result = await judge(run, argv, stdin);
  if (result.ok && result.exitCode !== 0) throw new Error(`the warm-up call failed: ${result.stderr.trim()}`);
}

/**
 * Modification times of the code this daemon runs. A rebuilt or upgraded Arbiter must not be
 * answered by a daemon holding the old code in memory.
 */
function codeFingerprint(): string {
  const files = [
    import.meta.url,
    import.meta.resolve('@arbiter/tool-gate'),
    import.meta.resolve('@arbiter/engine/builtin'),
    import.meta.resolve('@arbiter/tool-gate-analysis'),
    import.meta.resolve('@arbiter/decision'),
  ];
  return files
    .map((url) => {
      try {
        return statSync(fileURLToPath(url)).mtimeMs;
      } catch {
        return 'missing';
      }
    })
    .join(' ');
}

/** Listens on `path`, replacing a socket file that no daemon answers on; false when one does. */
async function listen(server: ReturnType<typeof createServer>, path: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      server.once('error', resolve);
      server.listen(path, () => {
        server.off('error', resolve);
        resolve(null);
      });
    });
    if (error === null) return true;
    if (error.code !== 'EADDRINUSE') throw error;
    if (await answers(path)) return false;
    removeFile(path);
  }
  return false;
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

function removeFile(path: string | undefined): void {
  if (path === undefined) return;
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
