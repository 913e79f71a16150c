import { parsePermissionRule, ruleMatchesCall, viewToolCall } from '@arbiter/tool-gate/permission-rules';
import { describe, expect, it } from 'vitest';
import { suggestionRuleOf } from './team-suggestion-rule.js';

const shell = (command: string, tool = 'Bash') => suggestionRuleOf(tool, { command, summary: command });

describe('suggestionRuleOf', () => {
  it.each([
    ['npm run build --prod', 'Bash(npm run build:*)'],
    ['make test', 'Bash(make test:*)'],
    ['pytest -q', 'Bash(pytest:*)'],
    ['pytest', 'Bash(pytest:*)'],
    ['  cargo   test  --release ', 'Bash(cargo test:*)'],
    ['git status', 'Bash(git status:*)'],
    ['git log --oneline -5', 'Bash(git log:*)'],
    ['docker compose up -d', 'Bash(docker compose up:*)'],
    ['npm run test:unit', 'Bash(npm run test:unit:*)'],
    ['kubectl get pods web-1 extra', 'Bash(kubectl get pods:*)'],
    ['go test ./...', 'Bash(go test:*)'],
    ['tsc -b packages/server', 'Bash(tsc:*)'],
    ['ls src/gate', 'Bash(ls:*)'],
    ['cat README.md', 'Bash(cat:*)'],
    ['pip install requests==2.31', 'Bash(pip install:*)'],
    ['nvm use 20.19', 'Bash(nvm use:*)'],
    ['git commit -m "fix: the thing"', 'Bash(git commit:*)'],
    ['ls ~/projects', 'Bash(ls:*)'],
    ['curl [REDACTED:github-token]', 'Bash(curl:*)'],
  ])('%s → %s', (command, rule) => {
    expect(shell(command)).toBe(rule);
  });

  it.each([
    ['npm test && npm run build', 'a list'],
    ['npm test; rm -rf dist', 'a sequence'],
    ['cat log | grep error', 'a pipeline'],
    ['npm test || true', 'an alternative'],
    ['npm run dev &', 'a background job'],
    ['make > build.log', 'an output redirection'],
    ['sort < names.txt', 'an input redirection'],
    ['echo $(whoami)', 'a command substitution'],
    ['echo `whoami`', 'a backquoted substitution'],
    ['echo $HOME', 'a parameter expansion'],
    ['(cd src && make)', 'a subshell'],
    ['{ make; }', 'a group'],
    ['make \\\n test', 'an escaped line break'],
    ['make\nrm -rf /', 'two lines'],
    ['make # and then', 'a comment'],
    ['FOO=1 npm test', 'an environment assignment'],
    ['./gradlew build', 'a program named by a relative path'],
    ['/usr/bin/make test', 'a program named by an absolute path'],
    ['bash build.sh', 'a shell'],
    ['sh -c "make"', 'a shell with inline code'],
    ['python manage.py test', 'an interpreter'],
    ['node scripts/build.js', 'an interpreter'],
    ['sudo apt install jq', 'a privilege tool'],
    ['env make', 'a wrapper'],
    ['xargs rm', 'a wrapper'],
    ['find . -name x -delete', 'find, whose options delete and execute'],
    ["sed -i 's/a/b/' file", 'sed, which edits through an option'],
    ['', 'an empty line'],
    ['   ', 'a blank line'],
    ['-rf', 'an option where the program should be'],
  ])('never suggests %j (%s)', (command) => {
    expect(shell(command)).toBeNull();
  });

  it('maps the shell tools of Gemini CLI and Codex to the same Bash rule, which covers their calls', () => {
    for (const tool of ['Bash', 'run_shell_command', 'shell', 'exec_command']) {
      const rule = shell('npm run build --prod', tool);
      expect(rule).toBe('Bash(npm run build:*)');
      // The rule the hooks will hold allows that host's call: the pack's matcher agrees.
      const view = viewToolCall(tool, { command: 'npm run build --watch' });
      expect(ruleMatchesCall(parsePermissionRule(rule ?? ''), view, {})).toBe(true);
    }
  });

  it('makes a domain rule of a fetch call, for Claude Code and Gemini CLI', () => {
    const call = (url: string) => ({ url, summary: url });
    expect(suggestionRuleOf('WebFetch', call('https://Docs.Example.com/guide?q=1'))).toBe(
      'WebFetch(domain:docs.example.com)',
    );
    expect(suggestionRuleOf('web_fetch', call('http://example.org'))).toBe('WebFetch(domain:example.org)');
    expect(suggestionRuleOf('WebFetch', call('ftp://example.org/file'))).toBeNull();
    expect(suggestionRuleOf('WebFetch', call('not a url'))).toBeNull();
    expect(suggestionRuleOf('WebFetch', call('http://[::1]:8080/'))).toBeNull();
    expect(suggestionRuleOf('WebFetch', { summary: 'fetch' })).toBeNull();
  });

  it('never suggests file tools, MCP tools or other tools', () => {
    expect(suggestionRuleOf('Read', { path: 'src/a.ts', summary: 'read src/a.ts' })).toBeNull();
    expect(suggestionRuleOf('Edit', { path: 'src/a.ts', summary: 'edit src/a.ts' })).toBeNull();
    expect(suggestionRuleOf('write_file', { path: 'a', summary: 'write a' })).toBeNull();
    expect(suggestionRuleOf('mcp__github__create_issue', { summary: 'create an issue' })).toBeNull();
    expect(suggestionRuleOf('Task', { command: 'make test', summary: 'a sub-agent' })).toBeNull();
    expect(suggestionRuleOf('Bash', { summary: 'no command reported' })).toBeNull();
  });

  it('writes rules the permission-rule parser reads back and that match the call they came from', () => {
    for (const command of ['npm run build --prod', 'make test', 'pytest -q', 'git log --oneline']) {
      const rule = shell(command);
      expect(rule).not.toBeNull();
      const parsed = parsePermissionRule(rule ?? '');
      expect(parsed.tool).toBe('Bash');
      expect(ruleMatchesCall(parsed, viewToolCall('Bash', { command }), {})).toBe(true);
    }
  });
});
