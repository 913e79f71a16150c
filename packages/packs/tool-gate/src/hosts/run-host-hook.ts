import type { ToolGate } from '../tool-gate.js';
import type { HookSessionDefaults, HostHook } from './host-hook.js';

/**
 * One hook call: the host's JSON in, the host's decision JSON out (or null: print nothing).
 * It never throws: malformed input and gate failures both yield a well-formed `ask`, so a host
 * that treats a crashed hook as "no objection" cannot be steered into running the call.
 */
export async function runHostHook(options: {
  hook: HostHook;
  input: string;
  gate: ToolGate;
  defaults?: HookSessionDefaults;
  signal?: AbortSignal;
}): Promise<string | null> {
  const { hook } = options;
  const reading = hook.read(options.input, options.defaults ?? {});
  if (reading.kind === 'not-a-tool-call') return null;
  if (reading.kind === 'malformed') return hook.render('ASK', `could not judge the call: ${reading.problem}`);
  try {
    const verdict = await options.gate.check(
      reading.state,
      options.signal === undefined ? {} : { signal: options.signal },
    );
    const rule = verdict.rule === null ? '' : ` [rule ${verdict.rule}]`;
    return hook.render(verdict.effective, `${verdict.reason}${rule}`);
  } catch (error) {
    return hook.render(
      'ASK',
      `could not judge the call: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
