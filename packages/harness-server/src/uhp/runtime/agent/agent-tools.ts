import { jsonSchema, type ToolSet, tool } from 'ai';
import { z } from 'zod';
import { SandboxUnavailableError } from '../../sandbox/process-sandbox.js';
import type { HarnessTurn } from '../harness-runtime.js';
import { toolError, toolFailure } from '../tool-failure.js';
import type { GateContext, HarnessToolGate } from '../tool-gating/harness-tool-gate.js';
import {
  gatedWorkspaceCall,
  WORKSPACE_TOOL_NAMES,
  type WorkspaceToolName,
  workspaceGrant,
} from '../tool-gating/workspace-tool-call.js';
import type { McpConnections } from './mcp-connection.js';

const INPUTS = {
  list: z.object({ path: z.string().default('.').describe('directory, relative to the workspace') }),
  read: z.object({ path: z.string().describe('file, relative to the workspace') }),
  write: z.object({ path: z.string(), content: z.string().describe('the whole new content') }),
  edit: z.object({
    path: z.string(),
    old_string: z.string().min(1).describe('exact text to replace; must occur once unless replace_all'),
    new_string: z.string(),
    replace_all: z.boolean().default(false),
  }),
  search: z.object({
    pattern: z.string().min(1).describe('extended regular expression (grep -E)'),
    path: z.string().default('.'),
  }),
  shell: z.object({ command: z.string().min(1).describe('a /bin/sh command line, run in the workspace') }),
} satisfies Record<WorkspaceToolName, z.ZodType>;

const DESCRIPTIONS: Record<WorkspaceToolName, string> = {
  list: 'List a directory of the workspace (directories end in /).',
  read: 'Read a text file of the workspace.',
  write: 'Create or replace a file of the workspace.',
  edit: 'Replace exact text in a file of the workspace.',
  search: 'Search files of the workspace for a regular expression; prints file:line:text.',
  shell: 'Run a shell command in the workspace and get its exit status and output.',
};

export interface AgentToolsOptions {
  readonly gate: HarnessToolGate;
  readonly mcp: McpConnections;
  /** Told when a program was refused because no sandbox can start here. */
  readonly onSandboxUnavailable?: (message: string) => void;
}

/**
 * The tools one turn offers the model: the workspace tools the harness has not disabled and the
 * tools of its MCP servers. Every call goes through the gate first; refusals and failures become the
 * tool's result, so the model reads them and can change course.
 */
export function buildAgentTools(turn: HarnessTurn, options: AgentToolsOptions): ToolSet {
  const disabled = turn.harness.disabledTools ?? [];
  const cwd = turn.tools.workspace.root;
  const grant = workspaceGrant(
    disabled,
    options.mcp.tools.map((mcpTool) => mcpTool.server),
  );
  const contextOf = (callId: string, signal: AbortSignal | undefined): GateContext => ({
    sessionId: turn.sessionId,
    responseId: turn.responseId,
    callId,
    task: turn.text,
    cwd,
    grant,
    signal: signal ?? turn.signal,
  });
  const tools: ToolSet = {};
  for (const name of WORKSPACE_TOOL_NAMES) {
    if (disabled.includes(name)) continue;
    tools[name] = tool({
      description: DESCRIPTIONS[name],
      inputSchema: INPUTS[name] as z.ZodType<Record<string, unknown>>,
      execute: async (input: Record<string, unknown>, { toolCallId, abortSignal }) => {
        const outcome = await options.gate.review(
          gatedWorkspaceCall(name, input),
          contextOf(toolCallId, abortSignal),
        );
        if (!outcome.allowed) return outcome.refusal;
        return runWorkspaceTool(name, input, turn, options);
      },
    });
  }
  for (const mcpTool of options.mcp.tools) {
    if (disabled.includes(mcpTool.qualifiedName)) continue;
    tools[mcpTool.qualifiedName] = tool({
      description: mcpTool.description,
      inputSchema: jsonSchema<Record<string, unknown>>(mcpTool.inputSchema),
      execute: async (input: Record<string, unknown>, { toolCallId, abortSignal }) => {
        const call = { tool: mcpTool.qualifiedName, arguments: input };
        const outcome = await options.gate.review(call, contextOf(toolCallId, abortSignal));
        if (!outcome.allowed) return outcome.refusal;
        try {
          return await options.mcp.call(mcpTool, input, abortSignal ?? turn.signal);
        } catch (error) {
          if (turn.signal.aborted) throw error;
          return toolFailure(mcpTool.qualifiedName, error, 'reported');
        }
      },
    });
  }
  return tools;
}

async function runWorkspaceTool(
  name: WorkspaceToolName,
  input: Record<string, unknown>,
  turn: HarnessTurn,
  options: AgentToolsOptions,
): Promise<string> {
  const { tools } = turn;
  const text = (key: string) => String(input[key] ?? '');
  try {
    switch (name) {
      case 'list':
        return tools.list(text('path') || '.').join('\n') || '(empty directory)';
      case 'read':
        return await tools.read(text('path'));
      case 'write':
        return `wrote ${tools.write(text('path'), text('content'))} bytes to ${text('path')}`;
      case 'edit':
        return await edit(
          turn,
          text('path'),
          text('old_string'),
          text('new_string'),
          input.replace_all === true,
        );
      case 'search':
        return await search(turn, text('pattern'), text('path') || '.');
      case 'shell': {
        const command = text('command');
        const refusal = options.gate.guardShellCommand(command, tools.workspace.root);
        if (refusal) return refusal;
        // A cancel that arrived while the gate was deciding must not start the command: the shell
        // only listens for an abort that happens after it spawns.
        turn.signal.throwIfAborted();
        const result = await tools.shell(command, turn.signal);
        if (result.timedOut) return `[timed out after ${tools.limits.shellTimeoutMs} ms]\n${result.output}`;
        return `[exit ${result.exitCode}]\n${result.output}`;
      }
    }
  } catch (error) {
    if (turn.signal.aborted) throw error;
    if (error instanceof SandboxUnavailableError) options.onSandboxUnavailable?.(error.message);
    return toolFailure(name, error);
  }
}

async function edit(
  turn: HarnessTurn,
  path: string,
  oldText: string,
  newText: string,
  all: boolean,
): Promise<string> {
  const content = await turn.tools.read(path);
  if (content.includes('\n[truncated at ')) return toolError('the file is too large to edit with this tool');
  const occurrences = content.split(oldText).length - 1;
  if (occurrences === 0) return toolError('old_string does not occur in the file');
  if (occurrences > 1 && !all)
    return toolError(`old_string occurs ${occurrences} times; give more context or set replace_all`);
  turn.tools.write(
    path,
    all ? content.replaceAll(oldText, newText) : content.replace(oldText, () => newText),
  );
  return `replaced ${all ? occurrences : 1} occurrence(s) in ${path}`;
}

/** grep(1) in the sandbox, without a shell: the pattern is one argument, the path is confined first. */
async function search(turn: HarnessTurn, pattern: string, relativePath: string): Promise<string> {
  const root = turn.tools.workspace.root;
  const target = turn.tools.workspace.resolve(relativePath);
  const cap = turn.tools.limits.outputCapBytes;
  const result = await turn.tools.run(
    ['grep', '-rnIE', '--exclude-dir=.arbiter', '--', pattern, target === root ? '.' : target],
    turn.signal,
  );
  if (turn.signal.aborted) throw turn.signal.reason;
  if (result.timedOut) return toolError('the search timed out');
  if (result.exitCode === 1) return 'no matches';
  if (result.exitCode === 2) return toolError(result.output.split('\n')[0] || 'invalid pattern');
  if (result.exitCode !== 0) return toolError('the search failed');
  const relative = result.output.replaceAll(`${root}/`, '');
  return relative.length > cap ? `${relative.slice(0, cap)}\n[truncated at ${cap} bytes]` : relative;
}
