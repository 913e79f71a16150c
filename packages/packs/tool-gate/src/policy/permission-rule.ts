/**
 * One permission rule in Claude Code's syntax: a bare tool name (`Bash`, `Read`), a tool with a
 * specifier (`Bash(npm run test:*)`, `Read(~/.ssh/**)`, `WebFetch(domain:example.com)`), or an
 * MCP name (`mcp__server`, `mcp__server__*`, `mcp__server__tool`).
 */
export interface PermissionRule {
  /** The rule as written, for records and messages. */
  readonly source: string;
  readonly tool: string;
  /** The text between the parentheses; null for a bare tool name. */
  readonly specifier: string | null;
}

const RULE = /^([A-Za-z_][\w.-]*(?:__[\w.*-]+)*)(?:\((.*)\))?$/s;

/** Parses a rule; throws a specific error for text that is not a rule. */
export function parsePermissionRule(source: string): PermissionRule {
  const trimmed = source.trim();
  const match = RULE.exec(trimmed);
  if (match === null || match[1] === undefined) {
    throw new TypeError(
      `not a permission rule: ${JSON.stringify(source)} (expected Tool, Tool(specifier) or mcp__server__tool)`,
    );
  }
  const specifier = match[2];
  if (specifier !== undefined && specifier.trim() === '') {
    throw new TypeError(
      `empty specifier in permission rule ${JSON.stringify(source)}; write the bare tool name`,
    );
  }
  return { source: trimmed, tool: match[1], specifier: specifier === undefined ? null : specifier.trim() };
}
