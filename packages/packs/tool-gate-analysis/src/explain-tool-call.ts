import { analyseToolCall, analyseToolCallSync, type ToolCallAnalysis } from './analyse-tool-call.js';
import type { Finding } from './finding.js';

/**
 * A readable trace of the analysis for `arbiter gate explain`: the call, its segments, every
 * finding with what it contributes, and the six answers. The rule the pack applies is the
 * pack's business and is printed by the CLI after this trace.
 */
export async function explainToolCall(state: unknown): Promise<string> {
  return formatToolCallAnalysis(await analyseToolCall(state));
}

/** The same trace once `loadBashParser()` has resolved. */
export function explainToolCallSync(state: unknown): string {
  return formatToolCallAnalysis(analyseToolCallSync(state));
}

export function formatToolCallAnalysis(analysis: ToolCallAnalysis): string {
  const lines: string[] = [];
  if (!analysis.valid) {
    lines.push('state: not a tool-gate state (expected {tool, arguments, grant, task})');
  } else {
    lines.push(
      `tool: ${analysis.tool}${analysis.canonicalTool !== analysis.tool ? ` (as ${analysis.canonicalTool})` : ''}`,
    );
    if (analysis.command !== undefined) lines.push(`command: ${oneLine(analysis.command)}`);
  }
  if (analysis.segments.length > 0) {
    lines.push(`segments (${analysis.segments.length}):`);
    for (const [index, segment] of analysis.segments.entries())
      lines.push(`  ${index + 1}. ${oneLine(segment)}`);
  }
  lines.push(
    `findings (${analysis.findings.length})${analysis.understood ? '' : ' — not fully understood'}:`,
  );
  if (analysis.findings.length === 0) lines.push('  (none: routine)');
  for (const finding of analysis.findings) lines.push(`  - ${finding.code}${contribution(finding)}`);
  const answers = analysis.answers;
  lines.push('answers:');
  for (const id of ['in_grant', 'args_plausible', 'destructive', 'exfil_risk', 'on_task'] as const)
    lines.push(`  ${id.padEnd(15)} ${answers[id].noul.toFixed(2)}`);
  const { choice, confidence, probabilities } = answers.disposition;
  lines.push(
    `  ${'disposition'.padEnd(15)} ${choice} (confidence ${confidence.toFixed(2)}; allow ${probabilities.allow.toFixed(2)}, deny ${probabilities.deny.toFixed(2)}, ask ${probabilities.ask.toFixed(2)})`,
  );
  return lines.join('\n');
}

function contribution(finding: Finding): string {
  const parts: string[] = [];
  if (finding.destructive !== undefined) parts.push(`destructive ${finding.destructive.toFixed(2)}`);
  if (finding.exfil !== undefined) parts.push(`exfil ${finding.exfil.toFixed(2)}`);
  if (finding.deny !== undefined) parts.push(`deny ${finding.deny.toFixed(2)}`);
  if (finding.onTask !== undefined) parts.push(`on task ${finding.onTask.toFixed(2)}`);
  if (finding.uncertain === true) parts.push('not understood');
  if (finding.implausible === true) parts.push('implausible');
  return parts.length === 0 ? '' : `  [${parts.join(', ')}]`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\n/g, '⏎');
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
