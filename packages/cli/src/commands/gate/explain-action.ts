import { DEFAULT_HOOK_TASK } from '@arbiter/tool-gate';

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
    process.stdout.write(`${JSON.stringify({ trace, verdict }, null, 2)}\n`);
    return;
  }
  const rule = verdict.rule === null ? 'no rule (no opinion)' : `rule ${verdict.rule}`;
  process.stdout.write(
    `${trace}\nverdict: ${verdict.verdict ?? 'no decision'} by ${rule}: ${verdict.reason}\n`,
  );
}
