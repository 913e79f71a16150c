import type { CanonicalTool } from './tool-call-state.js';

/**
 * Whether a call is within the granted tools. A grant is a tool name (`Bash`, or a host's
 * alias of it) or a Claude Code rule: `Bash(npm run test:*)` (prefix), `Bash(git status)`
 * (exact), `Read(./src/**)`, `WebFetch(domain:example.com)`, `mcp__server` or
 * `mcp__server__tool`. A shell command matches a rule only when every segment does.
 */
export function matchesGrant(
  grants: readonly string[],
  tool: string,
  canonical: CanonicalTool,
  subject: { segments?: readonly string[]; path?: string; url?: string },
): boolean {
  if (canonical === 'Bash') {
    // Each segment may be licensed by a different rule, but every one of them must be.
    const segments = subject.segments ?? [];
    if (grants.some((grant) => matchesOne(grant.trim(), tool, canonical, {}))) return true;
    return (
      segments.length > 0 &&
      segments.every((segment) =>
        grants.some((grant) => matchesOne(grant.trim(), tool, canonical, { segments: [segment] })),
      )
    );
  }
  return grants.some((grant) => matchesOne(grant.trim(), tool, canonical, subject));
}

function matchesOne(
  grant: string,
  tool: string,
  canonical: CanonicalTool,
  subject: { segments?: readonly string[]; path?: string; url?: string },
): boolean {
  if (grant === '*' || grant === tool) return true;
  const rule = /^([A-Za-z0-9_.-]+)\((.*)\)$/s.exec(grant);
  const name = rule?.[1] ?? grant;
  if (canonical === 'Mcp') {
    return (
      tool === name ||
      tool.startsWith(`${name}__`) ||
      (name.endsWith('__*') && tool.startsWith(name.slice(0, -1)))
    );
  }
  if (name !== canonical && name !== tool) return false;
  if (rule === undefined || rule === null) return true;
  const pattern = rule[2]!.trim();
  if (pattern === '' || pattern === '*') return true;
  if (canonical === 'Bash') {
    const segment = subject.segments?.[0];
    return segment !== undefined && matchesCommandPattern(pattern, segment);
  }
  if (canonical === 'WebFetch' && pattern.startsWith('domain:')) {
    const domain = pattern.slice('domain:'.length).toLowerCase();
    const host = hostname(subject.url ?? '');
    return host !== undefined && (host === domain || host.endsWith(`.${domain}`));
  }
  if (subject.path !== undefined) return globMatches(pattern, subject.path);
  return false;
}

function matchesCommandPattern(pattern: string, command: string): boolean {
  const normalised = command.trim().replace(/\s+/g, ' ');
  if (pattern.endsWith(':*')) {
    const prefix = pattern.slice(0, -2);
    return normalised === prefix || normalised.startsWith(`${prefix} `);
  }
  if (pattern.endsWith('*')) return normalised.startsWith(pattern.slice(0, -1));
  return normalised === pattern;
}

function globMatches(pattern: string, path: string): boolean {
  const normalisedPattern = pattern.replace(/^\.\//, '');
  const normalisedPath = path.replace(/^\.\//, '');
  const source = normalisedPattern
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${source}$`).test(normalisedPath);
}

function hostname(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
