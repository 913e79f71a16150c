import type { ProcessLimits } from './sandbox-config.js';

/**
 * How a sandboxed program gets its resource limits. Principle: a limit is set before the program's
 * first instruction, soft = hard, by a process that already runs, so the program can only lower it
 * (raising a hard rlimit needs CAP_SYS_RESOURCE on the host, which nothing in the sandbox holds).
 *
 * - `shell`: the sandbox's own `/bin/sh` sets them with its `ulimit` builtin. A shell command
 *   (`/bin/sh -c script`, what the shell tool and `@shell` run) gets them in the very shell that runs
 *   the script, so no process is added; any other program is started by `exec` from that shell.
 * - `prlimit`: util-linux `prlimit` sets them and starts the program: one more exec per start, used
 *   only where the shell's `ulimit` was not proven to set every limit exactly.
 *
 * Either way the server proves at start that the limits arrive (`limitsMismatch`) before it uses it.
 */
export type LimitSetter =
  | { readonly kind: 'shell'; readonly shell: string }
  | { readonly kind: 'prlimit'; readonly prlimit: string };

/** The shell that sets the limits: the system's, as the sandbox sees it. */
export const SANDBOX_SHELL = '/bin/sh';

const MIB = 1024 * 1024;

/** One rlimit of the program: its name in /proc/<pid>/limits and the value in that file's unit. */
interface Rlimit {
  readonly procName: string;
  readonly value: number;
  /** dash's `ulimit` option and the value in its unit (POSIX `-f` counts 512-byte blocks). */
  readonly ulimit: readonly [option: string, value: number];
  readonly prlimit: string;
}

function rlimitsOf(limits: ProcessLimits): Rlimit[] {
  const rlimits: Rlimit[] = [];
  const add = (procName: string, value: number, option: string, unit: number, prlimit: string) =>
    rlimits.push({ procName, value, ulimit: [option, value / unit], prlimit: `--${prlimit}=${value}` });
  if (limits.cpuSeconds !== null) add('Max cpu time', limits.cpuSeconds, '-t', 1, 'cpu');
  if (limits.memoryMiB !== null) add('Max address space', limits.memoryMiB * MIB, '-v', 1024, 'as');
  if (limits.processes !== null) add('Max processes', limits.processes, '-p', 1, 'nproc');
  if (limits.fileSizeMiB !== null) add('Max file size', limits.fileSizeMiB * MIB, '-f', 512, 'fsize');
  if (limits.openFiles !== null) add('Max open files', limits.openFiles, '-n', 1, 'nofile');
  // No core dumps: a dump of a crashed program could hold what it read.
  add('Max core file size', 0, '-c', 512, 'core');
  return rlimits;
}

/**
 * The `ulimit` commands, one limit each (dash takes one per call), without -H or -S so that both
 * the soft and the hard limit are set. Any failure ends the shell with 126 before the program runs.
 */
function ulimitLine(limits: ProcessLimits): string {
  const calls = rlimitsOf(limits).map(({ ulimit: [option, value] }) => `ulimit ${option} ${value}`);
  return `${calls.join(' && ')} || exit 126`;
}

/** The argv bwrap starts inside the sandbox (after any change of id): limits, then `argv`. */
export function limitedProgram(
  setter: LimitSetter,
  limits: ProcessLimits,
  argv: readonly string[],
): string[] {
  if (setter.kind === 'prlimit')
    return [setter.prlimit, ...rlimitsOf(limits).map((rlimit) => rlimit.prlimit), '--', ...argv];
  const [program, flag, script, ...rest] = argv;
  if (program === setter.shell && flag === '-c' && script !== undefined)
    // Same line, so the script's line numbers (in its error messages, $LINENO) stay its own. The
    // shell parses this whole line before running any of it, and only runs the script after the
    // limits are set: nothing of the script can run first.
    return [program, flag, `${ulimitLine(limits)}; ${script}`, ...rest];
  return [setter.shell, '-c', `${ulimitLine(limits)}; exec "$@"`, setter.shell, ...argv];
}

/**
 * Null when the text of /proc/<pid>/limits read inside the sandbox shows every limit in force with
 * soft = hard, else which ones are not (the start-up proof of a LimitSetter).
 */
export function limitsMismatch(procLimits: string, limits: ProcessLimits): string | null {
  const wrong: string[] = [];
  for (const rlimit of rlimitsOf(limits)) {
    const line = procLimits.split('\n').find((candidate) => candidate.startsWith(rlimit.procName));
    const [soft, hard] = line?.slice(rlimit.procName.length).trim().split(/\s+/) ?? [];
    if (soft !== String(rlimit.value) || hard !== String(rlimit.value))
      wrong.push(`${rlimit.procName.toLowerCase()} is ${soft ?? '?'}/${hard ?? '?'}, not ${rlimit.value}`);
  }
  return wrong.length === 0 ? null : wrong.join('; ');
}
