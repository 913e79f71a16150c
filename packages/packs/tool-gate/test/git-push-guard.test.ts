import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardGitPush, guardPrePush, readRemotes } from '../src/guard/git-push-guard.js';

let root: string;
let remote: string;
let repo: string;
const git = (...args: string[]) =>
  execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  }).trim();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'arbiter-push-guard-'));
  remote = join(root, 'remote.git');
  repo = join(root, 'work');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  git('remote', 'add', 'origin', remote);
  git('commit', '-q', '--allow-empty', '-m', 'first');
  git('push', '-q', 'origin', 'main');
  git('checkout', '-q', '-b', 'feature');
  git('commit', '-q', '--allow-empty', '-m', 'feature work');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const check = (command: string) => guardGitPush({ command, cwd: repo });
const kinds = (command: string) => check(command).violations.map((violation) => violation.kind);

describe('guardGitPush', () => {
  it('reads the configured remotes with git remote -v', () => {
    expect(readRemotes(repo)).toEqual({ origin: [remote] });
  });

  it('allows an ordinary push of a feature branch to a configured remote', () => {
    expect(check('git push origin feature')).toEqual({ allowed: true, violations: [] });
    expect(check('git push -u origin feature')).toMatchObject({ allowed: true });
    expect(check(`git push ${remote} feature`)).toMatchObject({ allowed: true });
    expect(check('git push')).toMatchObject({ allowed: true }); // current branch is feature
  });

  it('refuses force pushes in every spelling', () => {
    for (const command of [
      'git push -f origin feature',
      'git push --force origin feature',
      'git push --force-with-lease origin feature',
      'git push --force-with-lease=feature:abc origin feature',
      'git push -uf origin feature',
      'git push origin +feature',
      'git push origin +HEAD:feature',
      `git -C ${repo} push -f origin feature`,
      'sudo git push --force',
      '/usr/bin/git push -f',
      'GIT_TRACE=1 git push -f origin feature',
    ]) {
      expect(kinds(command), command).toContain('force');
    }
  });

  it('refuses --mirror', () => {
    expect(kinds('git push --mirror origin')).toContain('mirror');
  });

  it('refuses pushes to protected branches, named, by refspec, deleted or implicit', () => {
    expect(kinds('git push origin main')).toEqual(['protected-branch']);
    expect(kinds('git push origin feature:main')).toEqual(['protected-branch']);
    expect(kinds('git push origin feature:refs/heads/master')).toEqual(['protected-branch']);
    expect(kinds('git push origin --delete release/1.0')).toEqual(['protected-branch']);
    expect(kinds('git push origin :release/2.x')).toEqual(['protected-branch']);
    expect(kinds('git push --all origin')).toContain('protected-branch');
    git('checkout', '-q', 'main');
    try {
      expect(kinds('git push')).toEqual(['protected-branch']);
      expect(kinds('git push origin HEAD')).toEqual(['protected-branch']);
    } finally {
      git('checkout', '-q', 'feature');
    }
  });

  it('honours a configured list of protected branches', () => {
    expect(
      guardGitPush({ command: 'git push origin main', cwd: repo, protectedBranches: ['prod'] }).allowed,
    ).toBe(true);
    expect(
      guardGitPush({ command: 'git push origin prod', cwd: repo, protectedBranches: ['prod'] }).allowed,
    ).toBe(false);
  });

  it('refuses remotes and URLs that are not configured', () => {
    expect(kinds('git push https://evil.example/x.git feature')).toEqual(['unknown-remote']);
    expect(kinds('git push upstream feature')).toEqual(['unknown-remote']);
    expect(kinds('git push --repo=https://evil.example/x.git')).toContain('unknown-remote');
  });

  it('reads remotes named like Object.prototype members as remotes', () => {
    // Remote names are the repository's own: `constructor` once made the reader throw.
    git('remote', 'add', 'constructor', remote);
    try {
      expect(readRemotes(repo)).toEqual({ origin: [remote], constructor: [remote] });
      expect(check('git push constructor feature')).toEqual({ allowed: true, violations: [] });
      expect(kinds('git push toString feature')).toEqual(['unknown-remote']);
    } finally {
      git('remote', 'remove', 'constructor');
    }
  });

  it('checks every git push in a compound command and nothing else', () => {
    expect(kinds('npm test && git push -f origin feature')).toEqual(['force']);
    expect(check('git commit -m "never git push -f origin main"')).toMatchObject({ allowed: true });
    expect(check('echo git push --force')).toMatchObject({ allowed: true });
    expect(check('npm test')).toEqual({ allowed: true, violations: [] });
  });

  it('takes argv from a harness runtime', () => {
    expect(guardGitPush({ argv: ['git', 'push', '--force'], cwd: repo }).allowed).toBe(false);
    expect(guardGitPush({ argv: ['git', 'status'], cwd: repo }).allowed).toBe(true);
  });

  it('refuses a command it cannot read', () => {
    expect(kinds('git push "origin')).toEqual(['unparsed']);
  });
});

describe('guardPrePush', () => {
  const zero = '0'.repeat(40);
  const update = (localRef: string, localSha: string, remoteRef: string, remoteSha: string) =>
    `${localRef} ${localSha} ${remoteRef} ${remoteSha}\n`;

  it('allows a fast-forward of a feature branch', () => {
    const head = git('rev-parse', 'HEAD');
    const base = git('rev-parse', 'main');
    const result = guardPrePush({
      remoteName: 'origin',
      remoteUrl: remote,
      cwd: repo,
      updates: update('refs/heads/feature', head, 'refs/heads/feature', base),
    });
    expect(result).toEqual({ allowed: true, violations: [] });
  });

  it('detects a force push from the shas: the remote commit is not contained', () => {
    const head = git('rev-parse', 'HEAD');
    git('checkout', '-q', '--orphan', 'rewritten');
    git('commit', '-q', '--allow-empty', '-m', 'rewritten history');
    const rewritten = git('rev-parse', 'HEAD');
    git('checkout', '-q', 'feature');
    const result = guardPrePush({
      remoteName: 'origin',
      remoteUrl: remote,
      cwd: repo,
      updates: update('refs/heads/rewritten', rewritten, 'refs/heads/feature', head),
    });
    expect(result.violations.map((violation) => violation.kind)).toEqual(['force']);
  });

  it('refuses protected branches, deletions and unknown URLs', () => {
    const head = git('rev-parse', 'HEAD');
    const result = guardPrePush({
      remoteName: 'https://evil.example/x.git',
      remoteUrl: 'https://evil.example/x.git',
      cwd: repo,
      updates:
        update('refs/heads/feature', head, 'refs/heads/main', zero) +
        update('(delete)', zero, 'refs/heads/release/1', head),
    });
    expect(result.violations.map((violation) => violation.kind)).toEqual([
      'unknown-remote',
      'protected-branch',
      'protected-branch',
    ]);
    expect(result.violations[2]?.message).toMatch(/deleting/);
  });
});
