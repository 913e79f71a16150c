import { DEFAULT_HOOK_TASK } from '@arbiter/tool-gate';

export interface GateExplainOptions {
  readonly tool?: string;
  readonly task?: string;
  readonly json?: boolean;
}

/**
 * `arbiter gate explain '<command>'`: the analyser's trace of a shell command (segments and
 * findings) followed by the six answers and the rule that fired, as the in-process gate sees it.
 */
export async function runGateExplain(command: string, options: GateExplainOptions): Promise<void> {
  // TEMPORARY until the engine exports explainToolCall (in progress in parallel).
  const { explainToolCall } = (await import('@arbiter/engine')) as unknown as {
    explainToolCall: (state: unknown) => unknown;
  };
  const { createGateFromOptions } = await import('./gate-options.js');
  const tool = options.tool ?? 'Bash';
  const state = { tool, arguments: { command }, grant: [tool], task: options.task ?? DEFAULT_HOOK_TASK };
  const trace = explainToolCall(state);
  const verdict = await (await createGateFromOptions({})).check(state);
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify({ trace, verdict }, null, 2)}\n`);
    return;
  }
  const lines: string[] = [];
  renderValue(lines, 'trace', trace, 0);
  lines.push('answers:');
  for (const [id, answer] of Object.entries(verdict.answers ?? {})) {
    if (answer === undefined) continue;
    const value =
      answer.type === 'noul'
        ? answer.noul.toFixed(3)
        : answer.type === 'choice'
          ? `${answer.choice} (confidence ${answer.confidence.toFixed(3)})`
          : JSON.stringify(answer);
    const evidence = answer.arbiter?.evidence?.length ? `  [${answer.arbiter.evidence.join(', ')}]` : '';
    lines.push(`  ${id.padEnd(15)} ${value}${evidence}`);
  }
  const rule = verdict.rule === null ? 'no rule (no opinion)' : `rule ${verdict.rule}`;
  lines.push(`verdict: ${verdict.verdict ?? 'no decision'} by ${rule}: ${verdict.reason}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Prints any JSON-like trace as an indented outline; the trace's shape belongs to the analyser. */
function renderValue(lines: string[], label: string, value: unknown, depth: number): void {
  const indent = '  '.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) {
      lines.push(`${indent}${label}: (none)`);
      return;
    }
    lines.push(`${indent}${label}:`);
    value.forEach((item, index) => {
      renderValue(lines, `${index + 1}.`, item, depth + 1);
    });
    return;
  }
  if (typeof value === 'object' && value !== null) {
    lines.push(`${indent}${label}:`);
    for (const [key, item] of Object.entries(value)) renderValue(lines, key, item, depth + 1);
    return;
  }
  lines.push(`${indent}${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
}
