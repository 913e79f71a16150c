import type { ToolGate } from '../tool-gate.js';
import type { ToolGateVerdict } from '../tool-gate-verdict.js';
import type { HookInputReading, HookSessionDefaults, HostHook } from './host-hook.js';

export interface HostHookOptions {
  readonly hook: HostHook;
  readonly input: string;
  readonly gate: ToolGate;
  readonly defaults?: HookSessionDefaults;
  readonly signal?: AbortSignal;
}

/**
 * One judged hook call: the answer to print, what was read from the host, and the gate's
 * verdict (null when the gate did not run: an after-tool event, a malformed input, a failure).
 * A hook that reports to a team server builds its records from `reading` and `verdict`.
 */
export interface HostHookResult {
  readonly output: string | null;
  readonly reading: HookInputReading;
  readonly verdict: ToolGateVerdict | null;
}

/**
 * One hook call: the host's JSON in, the host's decision JSON out (or null: print nothing).
 * It never throws: malformed input and gate failures both yield a well-formed `ask`, so a host
 * that treats a crashed hook as "no objection" cannot be steered into running the call.
 */
export async function runHostHook(options: HostHookOptions): Promise<string | null> {
  return (await judgeHostHook(options)).output;
}

/** `runHostHook` with what it read and the verdict it reached, for a hook that also reports. */
export async function judgeHostHook(options: HostHookOptions): Promise<HostHookResult> {
  const { hook } = options;
  const reading = hook.read(options.input, options.defaults ?? {});
  // An after-tool event is not a question: the host already ran the call.
  if (reading.kind === 'not-a-tool-call' || reading.kind === 'tool-ran')
    return { output: null, reading, verdict: null };
  if (reading.kind === 'malformed')
    return {
      output: hook.render('ASK', `could not judge the call: ${reading.problem}`),
      reading,
      verdict: null,
    };
  try {
    const verdict = await options.gate.check(
      reading.state,
      options.signal === undefined ? {} : { signal: options.signal },
    );
    const rule = verdict.rule === null ? '' : ` [rule ${verdict.rule}]`;
    return { output: hook.render(verdict.effective, `${verdict.reason}${rule}`), reading, verdict };
  } catch (error) {
    return {
      output: hook.render(
        'ASK',
        `could not judge the call: ${error instanceof Error ? error.message : String(error)}`,
      ),
      reading,
      verdict: null,
    };
  }
}
