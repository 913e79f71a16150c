import { grantCovers, type ToolCallView } from '@arbiter/tool-gate/permission-rules';
import type { CanonicalTool } from './tool-call-state.js';

/**
 * Whether a call is within the granted tools. A grant is a tool name (`Bash`, or a host's
 * alias of it) or a Claude Code rule: `Bash(npm run test:*)`, `Bash(git status)`,
 * `Read(./src/**)`, `WebFetch(domain:example.com)`, `mcp__server` or `mcp__server__tool`. The
 * rules are matched by the pack's one permission-rule matcher (the static policy's own), with
 * the call's `cwd` for relative rules. A shell command matches only when every segment does.
 */
export function matchesGrant(
  grants: readonly string[],
  tool: string,
  canonical: CanonicalTool,
  subject: { segments?: readonly string[]; path?: string; url?: string; cwd?: string | undefined },
): boolean {
  return grantCovers(grants, viewOf(tool, canonical, subject), { cwd: subject.cwd }, subject.segments ?? []);
}

/** The call in the matcher's vocabulary; the engine's host aliases decide the kind. */
function viewOf(
  tool: string,
  canonical: CanonicalTool,
  subject: { segments?: readonly string[]; path?: string; url?: string },
): ToolCallView {
  switch (canonical) {
    case 'Bash':
      return { kind: 'shell', tool, command: subject.segments?.join(' && ') ?? null };
    case 'Read':
    case 'Glob':
    case 'Grep':
      return { kind: 'read', tool, path: subject.path ?? null };
    case 'Write':
    case 'Edit':
      return { kind: 'edit', tool, path: subject.path ?? null };
    case 'WebFetch':
      return { kind: 'fetch', tool, url: subject.url ?? null };
    case 'Mcp': {
      const match = /^mcp__(.+?)(?:__(.+))?$/.exec(tool);
      return { kind: 'mcp', tool, server: match?.[1] ?? '', name: match?.[2] ?? null };
    }
    default:
      return { kind: 'other', tool };
  }
}
