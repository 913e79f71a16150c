import type { GatedCall } from './harness-tool-gate.js';

/** The built-in workspace tools of the `agent` base, by the names the model sees. */
export const WORKSPACE_TOOL_NAMES = ['list', 'read', 'write', 'edit', 'search', 'shell'] as const;
export type WorkspaceToolName = (typeof WORKSPACE_TOOL_NAMES)[number];

/** Each workspace tool in the gate's (Claude Code) vocabulary, so policies and analysers apply as written. */
const GATE_TOOL: Record<WorkspaceToolName, string> = {
  list: 'LS',
  read: 'Read',
  write: 'Write',
  edit: 'Edit',
  search: 'Grep',
  shell: 'Bash',
};

/** The grant of a harness: every workspace tool it has not disabled, plus its MCP servers. */
export function workspaceGrant(
  disabledTools: readonly string[],
  mcpServers: readonly string[] = [],
): string[] {
  return [
    ...WORKSPACE_TOOL_NAMES.filter((name) => !disabledTools.includes(name)).map((name) => GATE_TOOL[name]),
    ...mcpServers.map((server) => `mcp__${server}`),
  ];
}

/** A workspace tool call as the gate reads it: file paths as `file_path`, the shell line as `command`. */
export function gatedWorkspaceCall(
  name: WorkspaceToolName,
  args: Readonly<Record<string, unknown>>,
): GatedCall {
  const tool = GATE_TOOL[name];
  switch (name) {
    case 'read':
    case 'write':
    case 'edit': {
      const { path, ...rest } = args;
      return { tool, arguments: { file_path: path, ...rest } };
    }
    default:
      return { tool, arguments: { ...args } };
  }
}
