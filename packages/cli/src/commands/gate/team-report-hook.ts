import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildTeamOutcomeRecord,
  buildTeamVerdictRecord,
  type HostHookResult,
  type HostName,
} from '@arbiter/tool-gate';
import type { TeamPolicy } from '@arbiter/tool-gate/team';
import { TeamReportQueue } from '@arbiter/tool-gate/team-reporting';
import { installedCliScript } from './cli-launcher.js';
import { backgroundFlusherRunning } from './team-report-background-flusher.js';

/**
 * While a flush failed this recently, hooks start no new flusher: a server that is down would
 * otherwise cost a process per tool call. `arbiter gate report flush` run by hand is not held back.
 */
export const FLUSH_BACKOFF_MS = 15_000;
/** A flush lock younger than this means a flusher is running and will send the new record too. */
const RUNNING_FLUSH_MS = 120_000;

export interface HookReportOptions {
  readonly host: HostName;
  readonly result: HostHookResult;
  /** The team server's base URL (`parseTeamServerUrl`). */
  readonly server: string;
  readonly directory: string;
  /** The cached team policy the gate applied, or null. */
  readonly policy: TeamPolicy | null;
  /** Starts the background flusher; injectable so tests can count starts. */
  readonly startFlusher?: (server: string) => void;
  readonly now?: () => Date;
}

/**
 * After the hook printed its answer: queues the record of what happened (a verdict, or an
 * after-tool event's outcome) and starts a detached flusher, so the host never waits on the
 * network. Never throws: reporting must not change the hook's answer or its exit status, so an
 * unwritable queue or a failed spawn is swallowed here (`arbiter gate report status` shows the
 * flusher's last error).
 */
export function reportHookEvent(options: HookReportOptions): boolean {
  try {
    const record = recordOf(options);
    if (record === null) return false;
    const queue = new TeamReportQueue({ directory: options.directory });
    queue.append(record);
    if (shouldStartFlusher(queue, options.now?.() ?? new Date()))
      (options.startFlusher ?? startDetachedFlusher)(options.server);
    return true;
  } catch {
    return false;
  }
}

function recordOf(options: HookReportOptions) {
  const { reading, verdict } = options.result;
  const now = options.now?.();
  if (reading.kind === 'tool-ran') {
    return buildTeamOutcomeRecord(
      { host: options.host, session: reading.session, ...(now === undefined ? {} : { now }) },
      { tool: reading.tool, arguments: reading.arguments },
    );
  }
  // A malformed input or a gate failure has no verdict to report: the host got an `ask` and
  // the call carries nothing the team could learn from.
  if (reading.kind !== 'tool-call' || verdict === null) return null;
  return buildTeamVerdictRecord(
    { host: options.host, session: reading.session, ...(now === undefined ? {} : { now }) },
    {
      tool: reading.state.tool,
      arguments: reading.state.arguments,
      ...(reading.state.cwd === undefined ? {} : { cwd: reading.state.cwd }),
    },
    verdict,
    options.policy,
  );
}

/** No flusher while one runs (it sends the new record too), nor right after one failed. */
function shouldStartFlusher(queue: TeamReportQueue, now: Date): boolean {
  if (backgroundFlusherRunning(queue.directory, now.getTime())) return false;
  try {
    const lock = statSync(join(queue.directory, 'flush.lock'));
    if (now.getTime() - lock.mtimeMs < RUNNING_FLUSH_MS) return false;
  } catch {
    // No flusher running.
  }
  const failedAt = queue.state().last_error_at;
  return failedAt === null || now.getTime() - Date.parse(failedAt) >= FLUSH_BACKOFF_MS;
}

/**
 * `arbiter gate report flush --server URL --background` in its own session, output discarded,
 * not waited for: the hook process (or the gate daemon) goes on at once. It inherits the
 * environment, which is where the key is, and stays a while for the next hooks' records.
 */
function startDetachedFlusher(server: string): void {
  const child = spawn(
    process.execPath,
    [installedCliScript(), 'gate', 'report', 'flush', '--server', server],
    {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, ARBITER_GATE_DAEMON: 'off' },
    },
  );
  child.on('error', () => {});
  child.unref();
}
