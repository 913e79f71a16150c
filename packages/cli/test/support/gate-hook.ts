import { createServer } from 'node:net';
import { runCli } from '../../src/cli-run.js';
import { type InvocationIo, inputOf, withInvocationIo } from '../../src/invocation-io.js';
import { createProgram } from '../../src/program.js';
import { type CliRun, type RunArbiterOptions, runArbiter } from './run-arbiter.js';

/**
 * The developer's side of the team gate, as the tests of the CLI and the console's end-to-end test
 * drive it: a host's hook event, `arbiter gate hook <host> --server URL` run on it (as a real
 * subprocess, or in this process where a test runs many), the answer it prints, and a server that
 * is down.
 */

/** What a Claude Code hook receives on standard input for one Bash call. */
export interface ClaudeCodeBashEvent {
  readonly session_id: string;
  readonly hook_event_name: 'PreToolUse' | 'PostToolUse';
  readonly tool_name: 'Bash';
  readonly tool_input: { readonly command: string };
  readonly cwd: string;
  readonly transcript_path?: string;
  readonly tool_use_id?: string;
  readonly tool_response?: {
    readonly stdout: string;
    readonly stderr: string;
    readonly interrupted: boolean;
  };
}

/**
 * A Bash call as Claude Code sends it to the hook: PreToolUse before it runs, PostToolUse (with
 * what it printed, when `printed` is given) once a person let it run.
 */
export function claudeCodeBashEvent(
  event: 'PreToolUse' | 'PostToolUse',
  command: string,
  where: { session: string; cwd: string; transcriptPath?: string; toolUseId?: string; printed?: string },
): ClaudeCodeBashEvent {
  return {
    session_id: where.session,
    ...(where.transcriptPath === undefined ? {} : { transcript_path: where.transcriptPath }),
    cwd: where.cwd,
    hook_event_name: event,
    tool_name: 'Bash',
    tool_input: { command },
    ...(event === 'PostToolUse' && where.printed !== undefined
      ? { tool_response: { stdout: where.printed, stderr: '', interrupted: false } }
      : {}),
    ...(where.toolUseId === undefined ? {} : { tool_use_id: where.toolUseId }),
  };
}

/** A run's exit status and both streams, for a failure message that shows what the process said. */
export function describeRun(run: CliRun): string {
  return `exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
}

/**
 * The permission decision a Claude Code hook printed, and its reason; throws with the output,
 * naming the hook as `which`, when it printed none.
 */
export function hookDecision(run: CliRun, which = 'the hook'): { decision: string; reason: string } {
  let answer: { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
  try {
    answer = JSON.parse(run.stdout);
  } catch {
    throw new Error(`${which} printed no JSON answer: ${describeRun(run)}`);
  }
  return {
    decision: answer.hookSpecificOutput?.permissionDecision ?? '(none)',
    reason: answer.hookSpecificOutput?.permissionDecisionReason ?? '',
  };
}

/** `arbiter gate hook <host> --server URL` as the host runs it: a real subprocess, the event on standard input. */
export function gateHookProcess(
  host: string,
  serverUrl: string,
  event: object,
  options: Omit<RunArbiterOptions, 'input'> = {},
): Promise<CliRun> {
  return runArbiter(['gate', 'hook', host, '--server', serverUrl], {
    ...options,
    input: JSON.stringify(event),
  });
}

/**
 * `arbiter gate hook <args>` in this process, with its own standard streams: for tests that run
 * many hooks, where a process each (about 0.7 s of CPU to load the gate) would be most of the time.
 * It reads ARBITER_HOME and the reporting variables from this process's environment.
 */
export async function gateHookInProcess(args: readonly string[], input: string): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: InvocationIo = {
    stdin: () => inputOf(input),
    writeStdout: (text) => {
      stdout += text;
    },
    writeStderr: (text) => {
      stderr += text;
    },
    isTerminal: () => false,
    ownsProcess: false,
  };
  const code = await withInvocationIo(io, () =>
    runCli(
      ['gate', 'hook', ...args],
      { output: { writeOut: io.writeStdout, writeErr: io.writeStderr } },
      createProgram,
    ),
  );
  return { code: code ?? 0, stdout, stderr };
}

/** A loopback URL nothing listens on: a port the system gave out, then closed (the team server is down). */
export async function closedLoopbackUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}
