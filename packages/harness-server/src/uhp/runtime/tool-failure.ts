import { SandboxUnavailableError } from '../sandbox/process-sandbox.js';
import { WorkspacePathError } from '../workspace/workspace.js';

/** A cause longer than this is cut: a tool server or a validator can explain at any length. */
export const TOOL_FAILURE_CAUSE_LIMIT = 500;

// The OS errors a caller explains by the path it gave, named as the C library names them.
const PATH_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
};

/**
 * Where a failure comes from. `server`: the server's own tools, whose unexpected errors can name the
 * server's paths, so only causes the caller can act on are told. `reported`: a failure reported to
 * the server by someone answering the caller (an MCP server's error reply, the SDK's verdict on the
 * model's own arguments), whose message is written for the caller and passed on.
 */
export type ToolFailureSource = 'server' | 'reported';

/**
 * A failed tool call as the call's result, the one wording of every runtime: `error: ` and the
 * cause, so the model (and a client reading the task's events) tells a failure from output and can
 * change course instead of retrying blindly.
 */
export function toolFailure(tool: string, error: unknown, source: ToolFailureSource = 'server'): string {
  if (error instanceof WorkspacePathError || error instanceof SandboxUnavailableError)
    return toolError(error.message);
  const pathError = PATH_ERRORS[(error as NodeJS.ErrnoException | undefined)?.code ?? ''];
  if (pathError) return toolError(pathError);
  if (source === 'reported') {
    const cause = typeof error === 'string' ? error : error instanceof Error ? error.message : '';
    if (cause !== '') return toolError(`the ${tool} tool failed: ${cause}`);
  }
  return toolError(`the ${tool} tool failed`);
}

/** A tool result that says the call failed, for a cause the tool itself words. */
export function toolError(cause: string): string {
  const text =
    cause.length > TOOL_FAILURE_CAUSE_LIMIT ? `${cause.slice(0, TOOL_FAILURE_CAUSE_LIMIT)} […]` : cause;
  return `error: ${text}`;
}
