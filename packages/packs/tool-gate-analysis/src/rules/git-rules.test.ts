import { beforeAll, describe, expect, it } from 'vitest';
import { analyseToolCallSync } from '../analyse-tool-call.js';
import { loadBashParser } from '../bash-parser.js';

function destructive(command: string): number {
  return analyseToolCallSync({ tool: 'Bash', arguments: { command }, grant: ['Bash'], task: 'Fix the bug.' })
    .answers.destructive.noul;
}

beforeAll(async () => {
  await loadBashParser();
});

describe('git', () => {
  it('reads its global options before the subcommand with the one option parser', () => {
    expect(
      destructive('git -c core.quotepath=off -C repo --no-pager push --force origin main'),
    ).toBeGreaterThanOrEqual(0.7);
    expect(destructive('git --git-dir=.git --work-tree . -P status')).toBeLessThan(0.2);
    expect(destructive('git -C')).toBeLessThan(0.2);
  });

  it.each([
    'git reset --hard',
    'git reset --hard origin/main',
    'git -C repo reset --hard',
    'git clean -fdx',
    'git clean --force',
    'git checkout -- .',
    'git checkout -f main',
    'git restore src/a.ts',
    'git restore --worktree --staged .',
    'git push -f',
    'git push --force origin main',
    'git push --force=true',
    'git push origin +main',
    'git push --mirror',
    'git push origin --delete feature',
    'git push origin :feature',
    'git branch -D feature',
    'git branch --delete --force feature',
    'git stash drop',
    'git stash clear',
    'git filter-branch --tree-filter "rm -f x" HEAD',
    'git reflog expire --expire=now --all',
    'git gc --prune=now',
  ])('%j is destructive', (command) => {
    expect(destructive(command)).toBeGreaterThanOrEqual(0.7);
  });

  it.each([
    'git status',
    'git reset --soft HEAD~1',
    'git reset HEAD file.txt',
    'git restore --staged .',
    'git clean -n',
    'git clean -fdn',
    'git checkout -b feature',
    'git checkout main',
    'git branch -d merged',
    'git stash pop',
    'git commit -am "git reset --hard is dangerous"',
    'git rebase -i HEAD~3',
  ])('%j is not destructive', (command) => {
    expect(destructive(command)).toBeLessThan(0.2);
  });

  it('a force push with lease is milder than a force push but not routine', () => {
    expect(destructive('git push --force-with-lease')).toBeGreaterThanOrEqual(0.2);
    expect(destructive('git push --force-with-lease')).toBeLessThan(0.7);
  });
});

describe('principle 8: a plain push shares work; rewriting remote history does not', () => {
  const disposition = (command: string) =>
    analyseToolCallSync({ tool: 'Bash', arguments: { command }, grant: ['Bash'], task: 'Fix the bug.' })
      .answers.disposition.choice;

  it.each(['git push', 'git push origin feature/login-form', 'git push -u origin fix/parser'])(
    '%j is allowed',
    (command) => {
      expect(disposition(command)).toBe('allow');
    },
  );

  it.each([
    'git push --force origin main',
    'git push origin +main',
    'git push https://git.example.net/copy.git main',
  ])('%j is not', (command) => {
    expect(disposition(command)).not.toBe('allow');
  });
});
