import { setFlagsFromString } from 'node:v8';
import type { HostHookResult, HostName } from '@arbiter/tool-gate';
import type { TeamPolicy } from '@arbiter/tool-gate/team';
import { invocationIo } from '../../invocation-io.js';
import { readStandardInput } from '../../standard-input.js';
import { UsageError } from '../usage-error.js';
import { createGateFromOptions, type GateCommandOptions } from './gate-options.js';

export interface GateHookOptions extends GateCommandOptions {
  readonly grant?: string[];
  readonly task?: string;
  /** A team server: apply its cached policy and report each verdict and outcome to it (issue 32). */
  readonly server?: string;
}

export const HOOK_HOSTS: readonly HostName[] = ['claude-code', 'gemini', 'codex'];

/**
 * `arbiter gate hook <host>`: the host's hook JSON on stdin, its decision JSON on stdout, or
 * nothing when the host's own rules should apply. Every failure still answers `ask` so that a
 * host treating a crashed hook as "no objection" is never steered into running the call.
 */
export async function runGateHook(host: string, options: GateHookOptions): Promise<void> {
  const io = invocationIo();
  // A hook process judges one call and exits. V8's optimising tier would recompile the whole
  // tree-sitter-bash WebAssembly module in the background for nothing: measured at about two
  // thirds of the hook's CPU time (bench/gate-hook-cpu.mjs). Baseline-compiled code is plenty for
  // one parse. The flag must be set before the engine loads the parser. A gate daemon, which
  // judges call after call, keeps the optimising tier.
  if (io.ownsProcess) setFlagsFromString('--liftoff-only');
  const { HOST_HOOKS, judgeHostHook } = await import('@arbiter/tool-gate');
  if (!HOOK_HOSTS.includes(host as HostName)) {
    throw new UsageError(`unknown host ${JSON.stringify(host)}; expected one of ${HOOK_HOSTS.join(', ')}`);
  }
  const hook = HOST_HOOKS[host as HostName];
  const team = options.server === undefined ? null : await teamReporting(options.server);
  let input = '';
  let output: string | null;
  let result: HostHookResult | null = null;
  try {
    input = await readStandardInput();
    const gate = await createGateFromOptions({
      ...options,
      ...(team?.policy == null ? {} : { teamAllow: team.policy.allow }),
    });
    result = await judgeHostHook({
      hook,
      input,
      gate,
      defaults: {
        ...(options.grant === undefined || options.grant.length === 0 ? {} : { grant: options.grant }),
        ...(options.task === undefined ? {} : { task: options.task }),
      },
    });
    output = result.output;
  } catch (error) {
    output = hook.render(
      'ASK',
      `the gate could not run: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (output !== null) io.writeStdout(`${output}\n`);
  // After the answer is written: reporting never delays, changes or fails it.
  if (team?.report != null && result !== null) team.report(host as HostName, result);
}

interface TeamReporting {
  /** The cached team policy; null when none is cached or it cannot be trusted. */
  readonly policy: TeamPolicy | null;
  /** Queues the record and starts a flusher; null when reporting is off or impossible. */
  readonly report: ((host: HostName, result: HostHookResult) => void) | null;
}

/**
 * `--server URL`: the cached team policy for the gate, and the reporter for afterwards. Loaded
 * only for a reporting hook. Nothing here may fail the hook: a bad URL or an unreadable
 * directory means no team rules and no report, with the same answer a plain hook would give.
 */
async function teamReporting(server: string): Promise<TeamReporting | null> {
  try {
    const [{ parseTeamServerUrl, teamReportDirectory }, { readCachedTeamPolicy }] = await Promise.all([
      import('./team-report-options.js'),
      import('@arbiter/tool-gate/team-reporting'),
    ]);
    const directory = teamReportDirectory();
    const policy = readCachedTeamPolicy(directory);
    let url: string;
    try {
      url = parseTeamServerUrl(server);
    } catch {
      return { policy, report: null };
    }
    // ARBITER_GATE_REPORT=off: judge without queueing (the install check's trial run);
    // `queue`: queue, but leave sending to `arbiter gate report flush` (cron, CI, tests).
    const mode = process.env.ARBITER_GATE_REPORT;
    if (mode === 'off') return { policy, report: null };
    const { reportHookEvent } = await import('./team-report-hook.js');
    return {
      policy,
      report: (host, result) => {
        reportHookEvent({
          host,
          result,
          server: url,
          directory,
          policy,
          ...(mode === 'queue' ? { startFlusher: () => {} } : {}),
        });
      },
    };
  } catch {
    return null;
  }
}
