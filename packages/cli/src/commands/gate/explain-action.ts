import { DEFAULT_HOOK_TASK } from '@arbiter/tool-gate';
import { invocationIo } from '../../invocation-io.js';

export interface GateExplainOptions {
  readonly tool?: string;
  readonly task?: string;
  readonly json?: boolean;
}

/**
 * `arbiter gate explain '<command>'`: the analyser's trace of a shell command (segments,
 * findings, the six answers), then the rule of the pack that fired, as the in-process gate sees it.
 */
export async function runGateExplain(command: string, options: GateExplainOptions): Promise<void> {
  const { explainToolCall } = await import('@arbiter/tool-gate-analysis');
  const { createGateFromOptions } = await import('./gate-options.js');
  const tool = options.tool ?? 'Bash';
  const state = { tool, arguments: { command }, grant: [tool], task: options.task ?? DEFAULT_HOOK_TASK };
  const [trace, verdict] = await Promise.all([
    explainToolCall(state),
    createGateFromOptions({}).then((gate) => gate.check(state)),
  ]);
  if (options.json === true) {
    invocationIo().writeStdout(`${JSON.stringify({ trace, verdict }, null, 2)}\n`);
    return;
  }
  const rule = verdict.rule === null ? 'no rule (no opinion)' : `rule ${verdict.rule}`;
  invocationIo().writeStdout(
    `${trace}\nverdict: ${verdict.verdict ?? 'no decision'} by ${rule}: ${verdict.reason}\n`,
  );
}
