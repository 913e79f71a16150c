import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyseToolCallSync } from './analyse-tool-call.js';
import { loadBashParser } from './bash-parser.js';
import { matchesGrant } from './grant-match.js';

describe('grant matching', () => {
  it('matches plain names and host aliases through the canonical name', () => {
    expect(matchesGrant(['Bash'], 'run_shell_command', 'Bash', { segments: ['ls'] })).toBe(true);
    expect(matchesGrant(['Read'], 'read_file', 'Read', { path: 'a' })).toBe(true);
    expect(matchesGrant(['Read'], 'Write', 'Write', { path: 'a' })).toBe(false);
  });

  it('matches Claude Code rules; a compound command needs every segment to match', () => {
    const grants = ['Bash(npm run test:*)', 'Bash(git status)'];
    expect(matchesGrant(grants, 'Bash', 'Bash', { segments: ['npm run test -- --watch'] })).toBe(true);
    expect(matchesGrant(grants, 'Bash', 'Bash', { segments: ['npm run test', 'git status'] })).toBe(true);
    expect(matchesGrant(grants, 'Bash', 'Bash', { segments: ['npm run test', 'rm -rf /'] })).toBe(false);
    expect(matchesGrant(grants, 'Bash', 'Bash', { segments: ['npm run testing'] })).toBe(false);
  });

  it('matches path globs, fetch domains and MCP servers', () => {
    expect(matchesGrant(['Read(./src/**)'], 'Read', 'Read', { path: 'src/a/b.ts' })).toBe(true);
    expect(matchesGrant(['Read(./src/**)'], 'Read', 'Read', { path: '.env' })).toBe(false);
    expect(
      matchesGrant(['WebFetch(domain:example.com)'], 'WebFetch', 'WebFetch', {
        url: 'https://docs.example.com/x',
      }),
    ).toBe(true);
    expect(
      matchesGrant(['WebFetch(domain:example.com)'], 'WebFetch', 'WebFetch', {
        url: 'https://example.com.evil.io/',
      }),
    ).toBe(false);
    expect(matchesGrant(['mcp__github'], 'mcp__github__get_issue', 'Mcp', {})).toBe(true);
    expect(matchesGrant(['mcp__github__get_issue'], 'mcp__github__delete_repo', 'Mcp', {})).toBe(false);
  });
});

describe('in_grant follows the shared permission-rule table of the pack', () => {
  interface PermissionRuleCase {
    rule: string;
    call: { tool: string; arguments: Record<string, unknown>; cwd?: string };
    matches: boolean;
    why: string;
  }
  const cases = JSON.parse(
    readFileSync(new URL('../../tool-gate/test/permission-rule-cases.json', import.meta.url), 'utf8'),
  ) as PermissionRuleCase[];

  beforeAll(async () => {
    await loadBashParser();
  });

  it.each(cases.map((each) => [each.rule, each.why, each] as const))('%s: %s', (_rule, _why, each) => {
    const analysis = analyseToolCallSync({ ...each.call, grant: [each.rule], task: 'Work on the project.' });
    expect(analysis.answers.in_grant.noul).toBe(each.matches ? 0.97 : 0.03);
  });
});
