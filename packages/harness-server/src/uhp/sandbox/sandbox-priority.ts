import { execFile } from 'node:child_process';
import { z } from 'zod';
import { findExecutable } from './executable-lookup.js';

/**
 * The CPU and I/O priority task programs start with. Principle: a tenant's program never outranks
 * the server that serves every tenant, so on a busy host the scheduler gives the server's event loop
 * (and other principals' requests) the CPU first and the program what is left. Both are set on the
 * host before bubblewrap starts (`nice` and `ionice` exec it, so no process stays in between), and
 * every process of the sandbox inherits them. The nice value is a bound: raising it needs
 * CAP_SYS_NICE in the host's user namespace (or an RLIMIT_NICE above 0, which is 0 by default), which
 * nothing in the sandbox holds. The I/O class is a default only: Linux lets any process choose its
 * own best-effort level (or leave the idle class), and refuses it only the realtime class.
 */
export const programPrioritySchema = z.strictObject({
  /** Nice value of every task program (0: as the server; 19: the lowest). Default 10. */
  nice: z.number().int().min(0).max(19).default(10),
  /**
   * I/O class: `lowest` (best-effort, level 7, the default), `idle` (the disk only when nothing else
   * wants it; a program can wait long), or `unchanged` (the server's). Only I/O schedulers that
   * honour classes (bfq) act on it; with `none` or `mq-deadline` it is set and has no effect.
   */
  io: z.enum(['lowest', 'idle', 'unchanged']).default('lowest'),
});
export type ProgramPriority = z.infer<typeof programPrioritySchema>;

export const DEFAULT_PROGRAM_PRIORITY: ProgramPriority = { nice: 10, io: 'lowest' };

/** How the priority is set on this host: the programs that set it, found once at start. */
export interface PriorityLowering {
  /** The argv put before bubblewrap's (empty when nothing is lowered). */
  readonly prefix: readonly string[];
  /** The nice value programs run at (0 when `nice` is not installed or 0 was asked). */
  readonly nice: number;
  /** The I/O class programs run in, or `unchanged` (asked, or `ionice` is not installed). */
  readonly io: ProgramPriority['io'];
}

/**
 * The prefix that lowers the priority, looked up on the server's PATH (the host's `nice` and
 * `ionice`, coreutils and util-linux). A missing program leaves its part unchanged; `describe` says
 * what holds.
 */
export function priorityLowering(
  priority: ProgramPriority,
  lookup: (command: string) => string | null = (command) => findExecutable(command),
): PriorityLowering {
  const prefix: string[] = [];
  let nice = 0;
  let io: ProgramPriority['io'] = 'unchanged';
  const niceProgram = priority.nice > 0 ? lookup('nice') : null;
  if (niceProgram) {
    prefix.push(niceProgram, '-n', String(priority.nice));
    nice = priority.nice;
  }
  const ionice = priority.io === 'unchanged' ? null : lookup('ionice');
  if (ionice) {
    prefix.push(ionice, ...(priority.io === 'idle' ? ['-c', '3'] : ['-c', '2', '-n', '7']));
    io = priority.io;
  }
  return { prefix, nice, io };
}

/**
 * `priorityLowering`, proven by starting `true` through it: where the host refuses a part (a
 * container that forbids ioprio_set makes `ionice` fail instead of starting the program), that part
 * is left out rather than every program refused.
 */
export async function provenPriorityLowering(
  priority: ProgramPriority,
  lookup?: (command: string) => string | null,
): Promise<PriorityLowering> {
  const candidates = [priority, { ...priority, io: 'unchanged' as const }];
  for (const candidate of candidates) {
    const lowering = priorityLowering(candidate, lookup);
    if (lowering.prefix.length === 0 || (await starts(lowering.prefix))) return lowering;
  }
  return { prefix: [], nice: 0, io: 'unchanged' };
}

function starts(prefix: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const [program, ...rest] = prefix;
    execFile(program as string, [...rest, 'true'], { timeout: 5000 }, (error) => resolve(error === null));
  });
}

/** The lowering in words, for the server's start banner. */
export function describePriority(lowering: PriorityLowering): string {
  const io =
    lowering.io === 'idle'
      ? 'I/O class idle'
      : lowering.io === 'lowest'
        ? 'I/O best-effort 7'
        : 'I/O priority unchanged';
  return lowering.nice > 0 ? `nice ${lowering.nice}, ${io}` : `priority not lowered (nice 0, ${io})`;
}
