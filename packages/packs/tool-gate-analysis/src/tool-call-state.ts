import { type ToolGateState, toolGateStateSchema } from '@arbiter/tool-gate/contract';
import { z } from 'zod';

/**
 * The tool-gate state: one proposed tool call and its context. Hosts name the same tools
 * differently; `canonicalTool` maps them onto Claude Code's names, which grant rules use.
 */
// The pack owns the contract: its schema (limits included) is the one the analysis reads.
export const toolCallStateSchema = toolGateStateSchema;
export type ToolCallState = ToolGateState;

export type CanonicalTool =
  | 'Bash'
  | 'Read'
  | 'Write'
  | 'Edit'
  | 'WebFetch'
  | 'WebSearch'
  | 'Glob'
  | 'Grep'
  | 'Mcp'
  | 'Internal'
  | 'Other';

const ALIASES: Readonly<Record<string, CanonicalTool>> = {
  Bash: 'Bash',
  bash: 'Bash',
  shell: 'Bash',
  run_shell_command: 'Bash',
  exec_command: 'Bash',
  local_shell: 'Bash',
  container_exec: 'Bash',
  Read: 'Read',
  read_file: 'Read',
  read_many_files: 'Read',
  Write: 'Write',
  write_file: 'Write',
  Edit: 'Edit',
  MultiEdit: 'Edit',
  replace: 'Edit',
  edit_file: 'Edit',
  apply_patch: 'Edit',
  NotebookEdit: 'Edit',
  WebFetch: 'WebFetch',
  web_fetch: 'WebFetch',
  WebSearch: 'WebSearch',
  google_web_search: 'WebSearch',
  web_search: 'WebSearch',
  Glob: 'Glob',
  glob: 'Glob',
  list_directory: 'Glob',
  LS: 'Glob',
  Grep: 'Grep',
  // The host's own bookkeeping: plans, to-do lists, reading a background shell's output. A
  // sub-agent (`Task`) starts as its instructions say (judged in file-tool-analyser.ts); each of its
  // own tool calls is gated again.
  TodoWrite: 'Internal',
  TodoRead: 'Internal',
  ExitPlanMode: 'Internal',
  exit_plan_mode: 'Internal',
  update_plan: 'Internal',
  BashOutput: 'Internal',
  Task: 'Internal',
  view_image: 'Read',
  search_file_content: 'Grep',
  grep: 'Grep',
};

export function canonicalTool(tool: string): CanonicalTool {
  if (tool.startsWith('mcp__')) return 'Mcp';
  // Tool names come from the agent: `constructor` or `toString` are names, not Object.prototype members.
  return Object.hasOwn(ALIASES, tool) ? ALIASES[tool]! : 'Other';
}

/** The state schema with zod's compiled fast path, built on first use (every analysis reads a state). */
let compiledStateSchema: typeof toolCallStateSchema | undefined;

/** Accepts the state as an object or a JSON string of one; anything else is a description of what is wrong. */
export function readToolCallState(
  state: unknown,
): { ok: true; state: ToolCallState } | { ok: false; reason: `state.${string}` } {
  let value = state;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { ok: false, reason: 'state.not-json' };
    }
  }
  compiledStateSchema ??= z.compile(toolCallStateSchema);
  const parsed = compiledStateSchema.safeParse(value);
  if (!parsed.success)
    return { ok: false, reason: `state.invalid:${parsed.error.issues[0]?.path.join('.') ?? ''}` };
  return { ok: true, state: parsed.data };
}

/** The shell command of a shell tool call, in any host's spelling (`command` may be an argv array). */
export function shellCommandOf(args: Record<string, unknown>): string | undefined {
  // Codex's local shell call nests its argv in an action: `{ action: { type: 'exec', command } }`.
  const action =
    typeof args.action === 'object' && args.action !== null ? (args.action as Record<string, unknown>) : {};
  const command = args.command ?? args.cmd ?? action.command;
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.every((part) => typeof part === 'string')) {
    const argv = command as string[];
    // Codex sends `["bash", "-lc", "…"]`; any other vector is quoted word by word.
    return argv
      .map((word) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`))
      .join(' ');
  }
  return undefined;
}
