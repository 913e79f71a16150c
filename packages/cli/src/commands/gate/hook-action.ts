import { setFlagsFromString } from 'node:v8';
import type { HostName } from '@arbiter/tool-gate';
import { invocationIo } from '../../invocation-io.js';
import { readStandardInput } from '../../standard-input.js';
import { UsageError } from '../usage-error.js';
import { createGateFromOptions, type GateCommandOptions } from './gate-options.js';

export interface GateHookOptions extends GateCommandOptions {
  readonly grant?: string[];
  readonly task?: string;
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
  const { HOST_HOOKS, runHostHook } = await import('@arbiter/tool-gate');
  if (!HOOK_HOSTS.includes(host as HostName)) {
    throw new UsageError(`unknown host ${JSON.stringify(host)}; expected one of ${HOOK_HOSTS.join(', ')}`);
  }
  const hook = HOST_HOOKS[host as HostName];
  let input = '';
  let output: string | null;
  try {
    input = await readStandardInput();
    const gate = await createGateFromOptions(options);
    output = await runHostHook({
      hook,
      input,
      gate,
      defaults: {
        ...(options.grant === undefined || options.grant.length === 0 ? {} : { grant: options.grant }),
        ...(options.task === undefined ? {} : { task: options.task }),
      },
    });
  } catch (error) {
    output = hook.render(
      'ASK',
      `the gate could not run: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (output !== null) io.writeStdout(`${output}\n`);
}
