/**
 * One proposed tool call seen through the permission vocabulary of Claude Code, whatever host
 * named it: Gemini CLI's `run_shell_command` and Codex's `shell` are `Bash`, `read_file` is
 * `Read`, `write_file`/`replace` are edits, `web_fetch` is `WebFetch`.
 */
export type ToolCallView =
  | { readonly kind: 'shell'; readonly tool: string; readonly command: string | null }
  | { readonly kind: 'read'; readonly tool: string; readonly path: string | null }
  | { readonly kind: 'edit'; readonly tool: string; readonly path: string | null }
  | { readonly kind: 'fetch'; readonly tool: string; readonly url: string | null }
  | { readonly kind: 'mcp'; readonly tool: string; readonly server: string; readonly name: string | null }
  | { readonly kind: 'other'; readonly tool: string };

const SHELL_TOOLS = new Set([
  'Bash',
  'run_shell_command',
  'shell',
  'exec_command',
  'local_shell',
  'container.exec',
]);
const READ_TOOLS = new Set(['Read', 'read_file', 'read_many_files', 'Grep', 'Glob', 'NotebookRead']);
const EDIT_TOOLS = new Set([
  'Edit',
  'MultiEdit',
  'Write',
  'NotebookEdit',
  'write_file',
  'replace',
  'apply_patch',
]);
const FETCH_TOOLS = new Set(['WebFetch', 'web_fetch']);

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Reads the tool name and arguments of a state into a `ToolCallView`. */
export function viewToolCall(tool: string, args: Record<string, unknown>): ToolCallView {
  if (SHELL_TOOLS.has(tool)) return { kind: 'shell', tool, command: shellCommand(args) };
  if (READ_TOOLS.has(tool))
    return { kind: 'read', tool, path: text(args.file_path) ?? text(args.absolute_path) ?? text(args.path) };
  if (EDIT_TOOLS.has(tool))
    return { kind: 'edit', tool, path: text(args.file_path) ?? text(args.notebook_path) ?? text(args.path) };
  if (FETCH_TOOLS.has(tool))
    return { kind: 'fetch', tool, url: text(args.url) ?? firstUrl(text(args.prompt)) };
  const mcp = /^mcp__(.+?)(?:__(.+))?$/.exec(tool);
  if (mcp?.[1] !== undefined) return { kind: 'mcp', tool, server: mcp[1], name: mcp[2] ?? null };
  return { kind: 'other', tool };
}

/** Codex sends argv arrays (`["bash", "-lc", "…"]`); the others send one command string. */
function shellCommand(args: Record<string, unknown>): string | null {
  const command = args.command ?? args.cmd;
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.every((part) => typeof part === 'string')) {
    const argv = command as string[];
    if (argv.length === 3 && /(^|\/)(ba|z|da)?sh$/.test(argv[0] ?? '') && /^-l?c$/.test(argv[1] ?? ''))
      return argv[2] ?? null;
    return argv.map(quoteArgument).join(' ');
  }
  return null;
}

function quoteArgument(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", `'\\''`)}'`;
}

function firstUrl(prompt: string | null): string | null {
  return prompt === null ? null : (/https?:\/\/[^\s"'<>]+/.exec(prompt)?.[0] ?? null);
}
