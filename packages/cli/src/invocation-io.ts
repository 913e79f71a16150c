import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Where one CLI invocation reads its standard input and writes its output. Normally the process's
 * own streams; the gate daemon runs many `gate hook` invocations at once in one process, each with
 * the input and output of the hook process that forwarded it.
 */
export interface InvocationIo {
  /** Standard input, chunk by chunk; read it through `standard-input.ts`. */
  stdin(): AsyncIterable<Uint8Array>;
  writeStdout(text: string): void;
  writeStderr(text: string): void;
  /** Whether the stream is a terminal: spinners, progress redrawn in place and prompts need one. */
  isTerminal(stream: 'stdin' | 'stdout' | 'stderr'): boolean;
  /** True when this invocation owns the process (not a daemon serving many invocations). */
  readonly ownsProcess: boolean;
}

/** The process's own streams. */
export const processIo: InvocationIo = {
  stdin: () => process.stdin,
  writeStdout: (text) => process.stdout.write(text),
  writeStderr: (text) => process.stderr.write(text),
  // Asked when needed, not at load: creating `process.stdin` or `process.stdout` costs CPU that a
  // forwarded `gate hook` never spends.
  isTerminal: (stream) => process[stream].isTTY === true,
  ownsProcess: true,
};

/** Text written somewhere, as renderers, spinners and progress bars need it. */
export interface TextOutput {
  write(text: string): unknown;
  readonly isTTY: boolean;
}

/** The standard output of the invocation running in this async context, as a `TextOutput`. */
export function invocationStdout(): TextOutput {
  const io = invocationIo();
  return { write: (text) => io.writeStdout(text), isTTY: io.isTerminal('stdout') };
}

/** The standard error of the invocation running in this async context, as a `TextOutput`. */
export function invocationStderr(): TextOutput {
  const io = invocationIo();
  return { write: (text) => io.writeStderr(text), isTTY: io.isTerminal('stderr') };
}

const current = new AsyncLocalStorage<InvocationIo>();

/** The IO of the invocation running in this async context. */
export function invocationIo(): InvocationIo {
  return current.getStore() ?? processIo;
}

/** An invocation's standard input when it was read already (by a hook forwarding to the daemon). */
export async function* inputOf(text: string): AsyncIterable<Uint8Array> {
  yield Buffer.from(text, 'utf8');
}

/** Runs `action` (one invocation) with `io` as its standard streams. */
export function withInvocationIo<T>(io: InvocationIo, action: () => Promise<T>): Promise<T> {
  return current.run(io, action);
}
