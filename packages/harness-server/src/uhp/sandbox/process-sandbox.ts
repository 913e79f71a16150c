import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  bubblewrapArguments,
  ETC_ENTRIES,
  hostSystemView,
  SANDBOX_PATH,
  type SandboxIdentity,
  type SystemViewEntry,
} from './bubblewrap-arguments.js';
import { findExecutable } from './executable-lookup.js';
import {
  DEFAULT_AGENT_LIMITS,
  DEFAULT_COMMAND_LIMITS,
  type ProcessLimits,
  type SandboxConfig,
  type SandboxConfigInput,
  sandboxConfigSchema,
} from './sandbox-config.js';
import { type LimitSetter, limitsMismatch, SANDBOX_SHELL } from './sandbox-limits.js';
import {
  describePriority,
  type PriorityLowering,
  priorityLowering,
  provenPriorityLowering,
} from './sandbox-priority.js';
import { handOverWorkspace, SandboxUsers } from './sandbox-users.js';
import { StagedEtc } from './staged-etc.js';

/**
 * One staged /etc per process: /etc is the host's, the same for every sandbox of this process. Made
 * at the first sandboxed start, removed when the process exits.
 */
let sharedEtc: StagedEtc | null | undefined;
/** The staged /etc to mount, or null where none can be made (the entries are bound by name). */
function stagedEtcPath(): Promise<string | null> {
  if (sharedEtc === undefined) {
    try {
      const staged = new StagedEtc(ETC_ENTRIES);
      sharedEtc = staged;
      process.once('exit', () => staged.close());
    } catch {
      // No private directory could be made (an unwritable TMPDIR): bind by name, as before.
      sharedEtc = null;
    }
  }
  return sharedEtc?.path() ?? Promise.resolve(null);
}

/** What isolation is in force, decided once when the server starts. */
export type SandboxState =
  | {
      readonly kind: 'bubblewrap';
      readonly bwrap: string;
      readonly identity: SandboxIdentity['kind'];
      readonly limitSetter: LimitSetter['kind'];
    }
  | { readonly kind: 'off-unsafe' }
  | { readonly kind: 'unavailable'; readonly reason: string };

/** A program was not started because no sandbox can run here; the message says why and what to do. */
export class SandboxUnavailableError extends Error {
  readonly code = 'arbiter_sandbox_unavailable';

  constructor(reason: string) {
    super(
      `Refused: this server runs no programs, because its sandbox cannot start (${reason}). ` +
        'The operator must install bubblewrap with user namespaces enabled (docs/security.md).',
    );
    this.name = 'SandboxUnavailableError';
  }
}

/** One program to start for a task. */
export interface SandboxSpawn {
  readonly argv: readonly string[];
  /** The session workspace: the working directory, HOME and the only writable path. */
  readonly workspace: string;
  /** `command`: a short program (shell tool, search); `agent`: an ACP agent for a whole turn. */
  readonly purpose: 'command' | 'agent';
  /** Variables besides PATH, HOME, TMPDIR and LANG; nothing of the server's environment is inherited. */
  readonly env?: Readonly<Record<string, string>>;
  /** Default: the `sandbox.network` setting. */
  readonly network?: boolean;
  readonly readOnlyPaths?: readonly string[];
  readonly writablePaths?: readonly string[];
  /** Over the limits of the purpose. */
  readonly limits?: Partial<ProcessLimits>;
  readonly stdin?: 'pipe' | 'ignore';
}

/** A started program; `kill` ends it and every process it started. */
export interface SandboxedProcess {
  readonly child: ChildProcess;
  kill(): void;
}

export interface SandboxRunOptions {
  readonly signal: AbortSignal;
  /** Wall-clock limit: the whole tree is killed when it passes. */
  readonly timeoutMs: number;
  /** Bytes of stdout+stderr kept. */
  readonly outputCapBytes: number;
}

export interface SandboxRunResult {
  readonly exitCode: number | null;
  readonly output: string;
  readonly timedOut: boolean;
}

/**
 * The one way a task's programs start. Every runtime (the shell tool, the offline model's `@shell`,
 * search, ACP agents) spawns through `spawn` or `run`; nothing else in the server starts a process on a
 * task's behalf. With bubblewrap every program gets the isolation of `bubblewrapArguments`; without a
 * working sandbox every spawn is refused, unless the operator chose `off-unsafe` explicitly.
 */
export class ProcessSandbox {
  private readonly live = new Set<SandboxedProcess>();

  private constructor(
    readonly state: SandboxState,
    private readonly config: SandboxConfig,
    private readonly systemView: readonly SystemViewEntry[],
    private readonly identity: SandboxIdentity | null,
    private readonly limitSetter: LimitSetter | null,
    private readonly users: SandboxUsers,
    /** How every program's CPU and I/O priority is lowered below the server's (`sandbox.priority`). */
    readonly priority: PriorityLowering = priorityLowering(config.priority),
  ) {}

  /**
   * Works out the isolation this host allows and proves it by starting one sandboxed program that
   * reports the limits it runs under. The limits are set by the sandbox's own shell (no extra
   * process); util-linux prlimit is the fallback where that shell does not set each one exactly.
   * `limitSetters` narrows the candidates, in order (tests and the start-cost bench use it).
   */
  static async open(
    input: SandboxConfigInput = {},
    { limitSetters = ['shell', 'prlimit'] }: { limitSetters?: readonly LimitSetter['kind'][] } = {},
  ): Promise<ProcessSandbox> {
    const config = sandboxConfigSchema.parse(input);
    const users = new SandboxUsers(config.users);
    const unavailable = (reason: string) =>
      new ProcessSandbox({ kind: 'unavailable', reason }, config, [], null, null, users);
    const priority = await provenPriorityLowering(config.priority);
    if (config.mode === 'off-unsafe')
      return new ProcessSandbox({ kind: 'off-unsafe' }, config, [], null, null, users, priority);
    const bwrap = findExecutable(config.bwrap);
    if (!bwrap) return unavailable(`bubblewrap (${config.bwrap}) is not installed`);
    // These run inside the sandbox, so they are looked up where the sandbox can see them.
    const setters: LimitSetter[] = [];
    for (const kind of limitSetters) {
      const found = findExecutable(kind === 'shell' ? SANDBOX_SHELL : 'prlimit', SANDBOX_PATH);
      if (found) setters.push(kind === 'shell' ? { kind, shell: found } : { kind, prlimit: found });
    }
    if (setters.length === 0)
      return unavailable(
        `nothing to set the limits: ${limitSetters.map(describeSetter).join(' or ')} is missing`,
      );
    let identity: SandboxIdentity;
    if (process.getuid?.() === 0) {
      const setpriv = findExecutable('setpriv', SANDBOX_PATH);
      if (!setpriv) return unavailable('setpriv (util-linux), needed to drop root, is not installed');
      identity = { kind: 'drop-root', uid: -1, gid: -1, setpriv };
    } else {
      identity = { kind: 'user-namespace', disableNestedUserNamespaces: await supportsOption(bwrap) };
    }
    const systemView = hostSystemView();
    const failures: string[] = [];
    for (const setter of setters) {
      const sandbox = new ProcessSandbox(
        { kind: 'bubblewrap', bwrap, identity: identity.kind, limitSetter: setter.kind },
        config,
        systemView,
        identity,
        setter,
        users,
        priority,
      );
      const failure = await sandbox.probe();
      if (failure === null) return sandbox;
      if (!failures.includes(failure)) failures.push(failure);
    }
    return unavailable(failures.join('; '));
  }

  /** A sandbox that refuses every program (tests and embeddings that run none). */
  static refusing(reason: string): ProcessSandbox {
    const config = sandboxConfigSchema.parse({});
    return new ProcessSandbox(
      { kind: 'unavailable', reason },
      config,
      [],
      null,
      null,
      new SandboxUsers(config.users),
    );
  }

  /** One line for the operator: the isolation in force, or loudly, its absence. */
  describe(): string {
    switch (this.state.kind) {
      case 'bubblewrap': {
        const limits = this.limitsFor('command', {});
        const who =
          this.state.identity === 'drop-root'
            ? `as unprivileged ids ${this.config.users.first}…${this.config.users.first + this.config.users.count - 1} (setpriv drops root)`
            : 'in a user namespace';
        const setBy = `set by ${describeSetter(this.state.limitSetter)}`;
        return (
          `Sandbox: bubblewrap (${this.state.bwrap}); task programs run ${who}, see only the system and their workspace, ` +
          `network ${this.config.network ? 'ON' : 'off'} for commands; limits per command: ${describeLimits(limits)} (${setBy}); ` +
          `below the server: ${describePriority(this.priority)}.`
        );
      }
      case 'off-unsafe':
        return (
          "WARNING: sandbox OFF (sandbox.mode: off-unsafe). Task programs run as this server's user and can read " +
          'and change everything it can: other sessions, the data directory, the network. Single trusted user only.'
        );
      case 'unavailable':
        return (
          `WARNING: no sandbox can start here (${this.state.reason}); tools that run programs are refused. ` +
          'Install bubblewrap (docs/security.md), or set sandbox.mode: off-unsafe to run them unisolated.'
        );
    }
  }

  /**
   * Starts `spec.argv` in the sandbox; rejects with SandboxUnavailableError when none can run here.
   * What precedes the start (handing the workspace to the sandbox's id, staging /etc) runs on the
   * thread pool, so a large workspace does not hold the event loop.
   */
  async spawn(spec: SandboxSpawn): Promise<SandboxedProcess> {
    if (this.state.kind === 'unavailable') throw new SandboxUnavailableError(this.state.reason);
    const env: Record<string, string> = {
      PATH: SANDBOX_PATH,
      LANG: 'C.UTF-8',
      ...spec.env,
      HOME: spec.workspace,
      TMPDIR: '/tmp',
    };
    if (this.state.kind === 'off-unsafe') {
      const [program = '/bin/false', ...rest] = [...this.priority.prefix, ...spec.argv];
      const child = spawn(program, rest, {
        cwd: spec.workspace,
        env: { ...env, TMPDIR: os.tmpdir() },
        stdio: [spec.stdin ?? 'ignore', 'pipe', 'pipe'],
        detached: true,
      });
      return this.track(child, null);
    }
    let identity = this.identity as SandboxIdentity;
    let leased: number | null = null;
    if (identity.kind === 'drop-root') {
      const lease = this.users.lease(spec.workspace);
      if (lease === null) throw new SandboxUnavailableError('every sandbox user id is in use');
      leased = lease.id;
      try {
        // With another program of this workspace still running, its tree is already this id's, and
        // walking it while that program could swap entries for links would not be safe.
        if (lease.alone) await handOverWorkspace(spec.workspace, lease.id);
      } catch (error) {
        this.users.release(lease.id);
        throw error;
      }
      identity = { ...identity, uid: lease.id, gid: lease.id };
    }
    let stagedEtc: string | null;
    try {
      stagedEtc = this.config.etc === 'staged' ? await stagedEtcPath() : null;
    } catch (error) {
      if (leased !== null) this.users.release(leased);
      throw error;
    }
    const args = bubblewrapArguments({
      systemView: this.systemView,
      identity,
      limitSetter: this.limitSetter as LimitSetter,
      workspace: spec.workspace,
      argv: spec.argv,
      env,
      network: spec.network ?? this.config.network,
      readOnlyPaths: spec.readOnlyPaths ?? [],
      writablePaths: spec.writablePaths ?? [],
      limits: this.limitsFor(spec.purpose, spec.limits ?? {}),
      stagedEtc,
    });
    // `nice` and `ionice` (when present) lower the priority and exec bubblewrap: the pid, and so the
    // process group that `kill` signals, stays the one spawned here.
    const [program, ...rest] = [...this.priority.prefix, (this.state as { bwrap: string }).bwrap, ...args];
    const child = spawn(program as string, rest, {
      env: {},
      stdio: [spec.stdin ?? 'ignore', 'pipe', 'pipe'],
      // Its own process group, so one signal reaches bwrap and everything in it.
      detached: true,
    });
    return this.track(child, leased);
  }

  /** Runs a program to its end (or the time limit, or `signal`), keeping its output up to a cap. */
  async run(spec: SandboxSpawn, options: SandboxRunOptions): Promise<SandboxRunResult> {
    options.signal.throwIfAborted();
    const started = await this.spawn(spec);
    return new Promise((resolve, reject) => {
      const { child } = started;
      const chunks: Buffer[] = [];
      let kept = 0;
      let dropped = 0;
      const collect = (chunk: Buffer) => {
        const room = options.outputCapBytes - kept;
        if (room > 0) {
          chunks.push(chunk.subarray(0, room));
          kept += Math.min(room, chunk.length);
        }
        dropped += Math.max(0, chunk.length - Math.max(room, 0));
      };
      child.stdout?.on('data', collect);
      child.stderr?.on('data', collect);
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        started.kill();
      }, options.timeoutMs);
      const onAbort = () => started.kill();
      options.signal.addEventListener('abort', onAbort, { once: true });
      // Aborted while the start was being prepared: the program is stopped at once.
      if (options.signal.aborted) onAbort();
      const settle = () => {
        clearTimeout(timer);
        options.signal.removeEventListener('abort', onAbort);
      };
      child.on('error', (error) => {
        settle();
        reject(error);
      });
      child.on('close', (exitCode) => {
        settle();
        let output = Buffer.concat(chunks).toString('utf8');
        if (dropped > 0) output += `\n[output truncated: ${dropped} more bytes]`;
        resolve({ exitCode, output, timedOut });
      });
    });
  }

  /** Kills every program still running (server shutdown). */
  killAll(): void {
    for (const running of [...this.live]) running.kill();
  }

  /** Programs started and not yet ended. */
  get running(): number {
    return this.live.size;
  }

  private track(child: ChildProcess, leased: number | null): SandboxedProcess {
    const running: SandboxedProcess = {
      child,
      kill() {
        // The negative pid is bwrap's process group; with its PID namespace gone, so is every
        // process inside (bwrap's init dies with its parent, and the kernel kills the rest).
        for (const target of child.pid ? [-child.pid, child.pid] : []) {
          try {
            process.kill(target, 'SIGKILL');
          } catch {
            // Already ended.
          }
        }
      },
    };
    this.live.add(running);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.live.delete(running);
      // After `close` every holder of the output pipes has exited, so the id is free of processes.
      if (leased !== null) this.users.release(leased);
    };
    child.once('close', end);
    child.once('error', end);
    return running;
  }

  /**
   * The address space, in MiB, that one sandbox's programs can hold together at most: its process
   * limit × its per-process memory limit (both rlimits, docs/security.md "Memory per principal").
   * null when either is lifted, or when no sandbox runs (nothing bounds the programs then).
   */
  memoryBoundMiB(purpose: SandboxSpawn['purpose']): number | null {
    if (this.state.kind !== 'bubblewrap') return null;
    const { processes, memoryMiB } = this.limitsFor(purpose, {});
    return processes === null || memoryMiB === null ? null : processes * memoryMiB;
  }

  private limitsFor(purpose: SandboxSpawn['purpose'], extra: Partial<ProcessLimits>): ProcessLimits {
    return purpose === 'agent'
      ? { ...DEFAULT_AGENT_LIMITS, ...this.config.agentLimits, ...extra }
      : { ...DEFAULT_COMMAND_LIMITS, ...this.config.commandLimits, ...extra };
  }

  /**
   * Starts a shell command in a scratch workspace that prints the limits it runs under; null when it
   * ran with every command limit in force, else why not (bwrap's own words, or the limits that differ).
   */
  private async probe(): Promise<string | null> {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-sandbox-probe-'));
    try {
      const result = await this.run(
        { argv: [SANDBOX_SHELL, '-c', 'exec cat /proc/self/limits'], workspace: scratch, purpose: 'command' },
        { signal: new AbortController().signal, timeoutMs: 10_000, outputCapBytes: 8192 },
      );
      if (result.exitCode === 0) {
        const mismatch = limitsMismatch(result.output, this.limitsFor('command', {}));
        if (mismatch === null) return null;
        const setter = this.limitSetter?.kind ?? 'shell';
        return `the limits ${describeSetter(setter)} sets are not in force (${mismatch})`;
      }
      const said = result.output
        .trim()
        .split('\n')[0]
        ?.replace(/^bwrap: /, '');
      return result.timedOut
        ? 'a test program did not finish in 10 s'
        : `bubblewrap failed: ${said || `exit ${result.exitCode}`}`;
    } catch (error) {
      return `bubblewrap could not be started: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }
}

/** Whether this bwrap can forbid user namespaces inside the sandbox (bubblewrap ≥ 0.8). */
function supportsOption(bwrap: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(bwrap, ['--help'], { timeout: 5000 }, (_error, stdout) =>
      resolve(stdout.includes('--disable-userns')),
    );
  });
}

function describeSetter(kind: LimitSetter['kind']): string {
  return kind === 'shell' ? `the sandbox's ${SANDBOX_SHELL} (ulimit)` : 'prlimit (util-linux)';
}

function describeLimits(limits: ProcessLimits): string {
  const parts = [
    limits.cpuSeconds === null ? null : `CPU ${limits.cpuSeconds} s`,
    limits.memoryMiB === null ? null : `memory ${limits.memoryMiB} MiB`,
    limits.processes === null ? null : `${limits.processes} processes`,
    limits.fileSizeMiB === null ? null : `files ${limits.fileSizeMiB} MiB`,
    limits.openFiles === null ? null : `${limits.openFiles} open files`,
    `/tmp ${limits.tmpMiB} MiB`,
  ];
  return parts.filter(Boolean).join(', ');
}
