import type { PermissionOption, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { GatedCall } from '../tool-gating/harness-tool-gate.js';

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const firstString = (input: Record<string, unknown>, keys: readonly string[]): string | undefined => {
  for (const key of keys) {
    const value = input[key];
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return value.join(' ');
  }
  return undefined;
};

/**
 * An ACP tool call as the gate reads it (Claude Code vocabulary), from its `kind`, `rawInput`,
 * `locations` and `title`: commands become `Bash`, file work `Read`/`Edit`, deletions and moves the
 * shell commands they amount to, so the gate's shell rules judge them.
 */
export function gatedAcpCall(toolCall: ToolCallUpdate): GatedCall {
  const input = record(toolCall.rawInput);
  const location = toolCall.locations?.[0]?.path;
  const filePath = firstString(input, ['path', 'file_path', 'filePath', 'abs_path']) ?? location;
  switch (toolCall.kind) {
    case 'execute': {
      const command = firstString(input, ['command', 'cmd', 'commandLine']) ?? toolCall.title ?? '';
      const args = Array.isArray(input.args) ? ` ${input.args.join(' ')}` : '';
      return { tool: 'Bash', arguments: { command: `${command}${args}` } };
    }
    case 'read':
      return { tool: 'Read', arguments: { ...input, file_path: filePath } };
    case 'edit':
      return { tool: 'Edit', arguments: { ...input, file_path: filePath } };
    case 'delete':
      return { tool: 'Bash', arguments: { command: `rm -r -- ${JSON.stringify(filePath ?? '')}` } };
    case 'move': {
      const to = firstString(input, ['destination', 'new_path', 'to']) ?? '';
      return {
        tool: 'Bash',
        arguments: { command: `mv -- ${JSON.stringify(filePath ?? '')} ${JSON.stringify(to)}` },
      };
    }
    case 'search':
      return { tool: 'Grep', arguments: { ...input } };
    case 'fetch':
      return { tool: 'WebFetch', arguments: { ...input, url: firstString(input, ['url', 'uri']) } };
    default:
      return {
        tool: `acp__${toolCall.kind ?? 'other'}`,
        arguments: { ...input, title: toolCall.title ?? null },
      };
  }
}

/** The option answering a verdict: one-time options first, so nothing is granted for later calls. */
export function permissionOption(
  options: readonly PermissionOption[],
  allowed: boolean,
): PermissionOption | undefined {
  const order = allowed ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
  for (const kind of order) {
    const option = options.find((candidate) => candidate.kind === kind);
    if (option) return option;
  }
  return undefined;
}
