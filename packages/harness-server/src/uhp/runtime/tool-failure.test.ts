import { describe, expect, it } from 'vitest';
import { SandboxUnavailableError } from '../sandbox/process-sandbox.js';
import { WorkspacePathError } from '../workspace/workspace.js';
import { TOOL_FAILURE_CAUSE_LIMIT, toolError, toolFailure } from './tool-failure.js';

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

describe('toolFailure', () => {
  it('tells the refusals of the workspace and the sandbox by their own message', () => {
    expect(toolFailure('read', new WorkspacePathError('the path "../x" leaves the workspace'))).toBe(
      'error: the path "../x" leaves the workspace',
    );
    const sandbox = new SandboxUnavailableError('bwrap is not installed');
    expect(toolFailure('shell', sandbox)).toBe(`error: ${sandbox.message}`);
  });

  it('names the path errors a caller can fix, without the server path in the message', () => {
    const missing = errno('ENOENT', "ENOENT: no such file or directory, open '/srv/arbiter/secret/x'");
    expect(toolFailure('read', missing)).toBe('error: no such file or directory');
    expect(toolFailure('write', errno('EISDIR', 'EISDIR /srv'))).toBe('error: is a directory');
    expect(toolFailure('list', errno('ENOTDIR', 'ENOTDIR /srv'))).toBe('error: not a directory');
  });

  it("keeps an unexpected error of the server's own tools to the tool's name", () => {
    const output = toolFailure('edit', new Error('EACCES: permission denied, open /var/lib/arbiter/keys.db'));
    expect(output).toBe('error: the edit tool failed');
    expect(output).not.toContain('/var/lib');
  });

  it('passes on a reported failure, from an Error or as the text the SDK already made of it', () => {
    expect(
      toolFailure('mcp__docs__search', new Error('MCP error -32001: Request timed out'), 'reported'),
    ).toBe('error: the mcp__docs__search tool failed: MCP error -32001: Request timed out');
    expect(toolFailure('read', 'Invalid input for tool read: path is required', 'reported')).toBe(
      'error: the read tool failed: Invalid input for tool read: path is required',
    );
    expect(toolFailure('read', { odd: true }, 'reported')).toBe('error: the read tool failed');
  });

  it('cuts a long cause at the documented limit and says so', () => {
    const output = toolError('x'.repeat(TOOL_FAILURE_CAUSE_LIMIT + 100));
    expect(output).toBe(`error: ${'x'.repeat(TOOL_FAILURE_CAUSE_LIMIT)} […]`);
    expect(toolError('short')).toBe('error: short');
  });
});
