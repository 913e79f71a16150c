import { RISK } from '../risk-scale.js';
import type { CommandRule, CommandScope } from '../shell-command.js';
import { taskMentions, taskNamesWord } from '../task-scope.js';
import { OPTION_SPECS } from '../vocabulary/program-options.js';
import { judgeTestDeletion } from './file-system-rules.js';
import { hasFlag, parseArguments, parseOptions } from './option-parse.js';

/** Subcommands that only read, or change nothing that cannot be undone from the reflog. */
const ROUTINE = new Set([
  'status',
  'log',
  'diff',
  'show',
  'add',
  'commit',
  'fetch',
  'pull',
  'switch',
  'merge',
  'rebase',
  'cherry-pick',
  'blame',
  'grep',
  'describe',
  'rev-parse',
  'rev-list',
  'ls-files',
  'ls-tree',
  'ls-remote',
  'cat-file',
  'init',
  'clone',
  'help',
  'version',
  'shortlog',
  'bisect',
  'mv',
  'notes',
  'format-patch',
  'am',
  'apply',
  'archive',
  'bundle',
  'count-objects',
  'fsck',
  'whatchanged',
  'range-diff',
  'revert',
  'show-ref',
  'show-branch',
  'citool',
  'difftool',
  'mergetool',
  'sparse-checkout',
  'for-each-ref',
  'name-rev',
  'merge-base',
  'verify-commit',
  'tag',
  'lfs',
  'annotate',
  'instaweb',
  'maintenance',
  'var',
  'check-ignore',
  'check-attr',
  'hash-object',
  'stage',
  'submodule',
  'worktree',
  'config',
  'remote',
  'reflog',
  'gc',
  'branch',
  'stash',
  'checkout',
  'restore',
  'reset',
  'clean',
  'push',
  'rm',
  'filter-branch',
  'filter-repo',
  'update-ref',
  'replace',
  'prune',
  'send-email',
  'request-pull',
  'credential',
  'credential-store',
  'credential-cache',
  'symbolic-ref',
  'read-tree',
  'commit-tree',
  'write-tree',
  'update-index',
  'pack-refs',
  'repack',
  'gui',
  'daemon',
  'svn',
  'p4',
  'fast-export',
  'fast-import',
]);

const git: CommandRule = (scope) => {
  const args = scope.command.args;
  // git's global options (`-C dir`, `-c key=value`, `--no-pager`) stand before its subcommand, the
  // first positional; its single-dash options are read whole (`-p`, `-P`), as git's own loop does.
  const leading = parseArguments(args, OPTION_SPECS.git, {
    clusters: false,
    negativeNumbers: 'option',
    firstPositionalEndsOptions: true,
  });
  if (
    leading.options.some(
      (option) => /^(--version|-v|--help|-h)$/.test(option.name) && option.value === undefined,
    )
  )
    return;
  const first = leading.tokens.find((token) => token.kind === 'positional');
  if (first === undefined) return;
  const index = first.index;
  const subcommand = first.value;
  const rest = args.slice(index + 1);
  if (!ROUTINE.has(subcommand)) {
    scope.add({
      code: `git.unknown-subcommand:${subcommand.slice(0, 30)}`,
      uncertain: true,
      implausible: true,
    });
    return;
  }
  const judge = Object.hasOwn(SUBCOMMANDS, subcommand) ? SUBCOMMANDS[subcommand] : undefined;
  judge?.(scope, rest);
  judgeRecordIntegrity(scope, args.slice(0, index), subcommand, rest);
};

/** git commands that run the repository's hooks, and so its checks, before they record or send. */
const HOOKED = new Set(['commit', 'push', 'merge', 'rebase', 'am', 'cherry-pick', 'revert']);
/** Environment switches of the hook managers (husky, pre-commit, lefthook, overcommit). */
const HOOKS_OFF =
  /^(HUSKY|HUSKY_SKIP_HOOKS|SKIP|PRE_COMMIT_ALLOW_NO_CONFIG|LEFTHOOK|LEFTHOOK_EXCLUDE|OVERCOMMIT_DISABLE|GIT_HOOKS_DISABLED)$/;

/**
 * What git records, and the checks it runs before recording, are the team's evidence of who
 * changed what and that it passed their checks (`check-weakening.ts` for files): skipping the hooks
 * (`--no-verify`, `HUSKY=0`, `SKIP=…`), switching signing off, writing a commit under another
 * author's name, or dating it in the past makes that evidence say what is not so. Asked.
 */
function judgeRecordIntegrity(
  scope: CommandScope,
  globals: readonly string[],
  subcommand: string,
  rest: readonly string[],
): void {
  const weakens = (what: string) =>
    scope.add({ code: `git.record:${what}`, deny: RISK.askHigh, onTask: 0.2 });
  if (HOOKED.has(subcommand)) {
    if (rest.includes('--no-verify') || (subcommand === 'commit' && rest.includes('-n')))
      weakens('hooks-skipped');
    const off = (scope.command.environment ?? []).find(
      ({ name, value }) =>
        HOOKS_OFF.test(name) &&
        (name === 'SKIP' || name === 'LEFTHOOK_EXCLUDE' || /^(0|false|1|true)$/i.test(value)),
    );
    if (off !== undefined) weakens(`hooks-skipped:${off.name}`);
  }
  const settings = globals.filter((_arg, index) => globals[index - 1] === '-c');
  if (
    settings.some((setting) => /^(commit|tag)\.gpgsign=(false|0|no)$/i.test(setting)) ||
    rest.includes('--no-gpg-sign')
  )
    weakens('unsigned');
  if (subcommand === 'commit' && rest.some((arg) => arg.startsWith('--author'))) weakens('another-author');
  const backdated =
    rest.some((arg) => /^--date(=|$)/.test(arg)) ||
    (scope.command.environment ?? []).some(
      ({ name }) => name === 'GIT_COMMITTER_DATE' || name === 'GIT_AUTHOR_DATE',
    );
  if (subcommand === 'commit' && backdated) weakens('backdated');
}

type SubcommandJudge = (scope: CommandScope, args: string[]) => void;

/**
 * `git clone URL [DIR]`, `git submodule add URL [DIR]`: the folder holds code fetched by this call,
 * so a script run from it later in the call is code nobody has read (principle 2).
 */
function clonedInto(scope: CommandScope, args: string[]): void {
  const { operands } = parseOptions(args, OPTION_SPECS['git clone']);
  const [url, folder] = operands;
  if (url === undefined) return;
  const name =
    folder ??
    url
      .replace(/\/+$/, '')
      .replace(/\.git$/, '')
      .split(/[/:]/)
      .at(-1) ??
    '';
  if (name !== '') scope.wrote(scope.path(name).normalised);
}

const discardsWork = (scope: CommandScope, code: string, severity: number) =>
  scope.add({ code: `git.${code}`, destructive: severity });

const SUBCOMMANDS: Readonly<Record<string, SubcommandJudge>> = {
  reset: (scope, args) => {
    const parsed = parseOptions(args);
    if (hasFlag(parsed, '--hard')) discardsWork(scope, 'reset.hard', RISK.denyHigh);
    else if (hasFlag(parsed, '--merge', '--keep')) discardsWork(scope, 'reset.merge', RISK.deny);
  },
  clean: (scope, args) => {
    const parsed = parseOptions(args, OPTION_SPECS['git clean']);
    if (hasFlag(parsed, '-n', '--dry-run')) return;
    if (hasFlag(parsed, '-f', '--force')) {
      discardsWork(
        scope,
        hasFlag(parsed, '-x', '-X') ? 'clean.force-ignored' : 'clean.force',
        hasFlag(parsed, '-x') ? RISK.denyHigh : RISK.deny,
      );
    } else if (hasFlag(parsed, '-i', '--interactive'))
      scope.add({ code: 'git.clean.interactive', uncertain: true });
  },
  checkout: (scope, args) => {
    const separator = args.indexOf('--');
    const parsed = parseOptions(args, OPTION_SPECS['git checkout']);
    if (hasFlag(parsed, '-f', '--force')) discardsWork(scope, 'checkout.force', RISK.deny);
    else if (separator >= 0 && args.length > separator + 1)
      discardsWork(scope, 'checkout.discard-paths', RISK.deny);
    else if (
      !hasFlag(parsed, '-b', '-B', '--orphan') &&
      parsed.operands.some((operand) => operand === '.' || operand === ':/')
    )
      discardsWork(scope, 'checkout.discard-all', RISK.deny);
  },
  switch: (scope, args) => {
    const parsed = parseOptions(args, OPTION_SPECS['git switch']);
    if (hasFlag(parsed, '-f', '--force', '--discard-changes'))
      discardsWork(scope, 'switch.discard-changes', RISK.deny);
  },
  restore: (scope, args) => {
    const parsed = parseOptions(args, OPTION_SPECS['git restore']);
    const staged = hasFlag(parsed, '-S', '--staged');
    const worktree = hasFlag(parsed, '-W', '--worktree');
    if (!staged || worktree) discardsWork(scope, 'restore.worktree', RISK.deny);
  },
  push: (scope, args) => {
    const parsed = parseOptions(args, OPTION_SPECS['git push']);
    const forced = parsed.flags.some(
      (flag) =>
        flag === '-f' ||
        (flag.startsWith('--force') &&
          !/^--force-with-lease(=|$)/.test(flag) &&
          flag !== '--force-if-includes') ||
        flag === '--mirror' ||
        flag === '--prune',
    );
    const deletes =
      hasFlag(parsed, '-d', '--delete') || parsed.operands.slice(1).some((ref) => ref.startsWith(':'));
    const plusRefspec = parsed.operands.slice(1).some((ref) => ref.startsWith('+'));
    const leased = parsed.flags.some((flag) => /^--force-with-lease(=|$)/.test(flag));
    const remote = parsed.operands[0];
    if (remote !== undefined && /^(https?|ssh|git):\/\/|^[^/\s]+@[^:\s]+:/.test(remote)) {
      // A URL rather than a configured remote: where the code goes is not the project's remote.
      scope.networkSink(`git-push:${remote}`);
      scope.add({ code: `git.push.unknown-remote:${remote.slice(0, 60)}`, exfil: RISK.deny, onTask: 0.1 });
    }
    const onTask = taskMentions(scope.task, 'push') ? 0.85 : 0.3;
    if (forced || plusRefspec) scope.add({ code: 'git.push.force', destructive: RISK.denyHigh, onTask });
    else if (deletes && namesEveryDeletedRef(scope.task, parsed.operands.slice(1)))
      // Principle 8: the task names each branch to delete, with a delete verb; not a protected one.
      scope.add({
        code: 'git.push.delete-remote-ref[intent.task-names-target]',
        destructive: RISK.low,
        onTask: 0.85,
      });
    else if (deletes) scope.add({ code: 'git.push.delete-remote-ref', destructive: RISK.deny, onTask });
    // A leased push overwrites only what this clone has seen of the branch, so it cannot destroy
    // someone else's pushes; to a topic branch it is rebased work published, as a plain push is.
    else if (leased && topicBranchOnly(parsed.operands.slice(1)))
      scope.add({ code: 'git.push.force-with-lease:topic-branch', onTask: 0.85 });
    else if (leased) scope.add({ code: 'git.push.force-with-lease', destructive: RISK.askLow, onTask });
    // Principle 8: a plain push to a known remote publishes the agent's commits and rewrites
    // nothing; sharing work is part of a coding task. Rewriting or deleting remote history is not.
    else scope.add({ code: 'git.push', onTask: 0.85 });
  },
  branch: (scope, args) => {
    const parsed = parseOptions(args);
    const deleting = hasFlag(parsed, '-d', '--delete', '-D');
    if (hasFlag(parsed, '-D') || (deleting && hasFlag(parsed, '-f', '--force')))
      discardsWork(scope, 'branch.force-delete', RISK.deny);
    else if (hasFlag(parsed, '-M', '-C')) discardsWork(scope, 'branch.force-rename', RISK.ask);
  },
  stash: (scope, args) => {
    const action = args[0];
    if (action === 'drop' || action === 'clear')
      discardsWork(scope, `stash.${action}`, action === 'clear' ? RISK.deny : RISK.deny);
  },
  'filter-branch': (scope) => discardsWork(scope, 'history-rewrite:filter-branch', RISK.denyHigh),
  'filter-repo': (scope) => discardsWork(scope, 'history-rewrite:filter-repo', RISK.denyHigh),
  reflog: (scope, args) => {
    if (args[0] === 'expire' || args[0] === 'delete') discardsWork(scope, `reflog.${args[0]}`, RISK.deny);
  },
  gc: (scope, args) => {
    if (args.some((arg) => arg.startsWith('--prune=now') || arg === '--prune=all'))
      discardsWork(scope, 'gc.prune-now', RISK.threshold);
  },
  prune: (scope) => discardsWork(scope, 'prune', RISK.ask),
  'update-ref': (scope, args) => {
    if (args.includes('-d') || args.includes('--stdin'))
      discardsWork(scope, 'update-ref.delete', RISK.threshold);
    else discardsWork(scope, 'update-ref', RISK.ask);
  },
  'symbolic-ref': (scope, args) => {
    if (args.includes('-d') || args.includes('--delete'))
      discardsWork(scope, 'symbolic-ref.delete', RISK.askHigh);
  },
  rm: (scope, args) => {
    const parsed = parseOptions(args);
    if (hasFlag(parsed, '--cached')) return;
    const recursive = hasFlag(parsed, '-r');
    const everything = parsed.operands.some(
      (operand) => operand === '.' || operand === '*' || operand === ':/',
    );
    scope.add({
      code: `git.rm${recursive ? '.recursive' : ''}`,
      destructive: everything ? RISK.askHigh : recursive ? RISK.askLow : RISK.routine,
    });
    judgeTestDeletion(scope, parsed.operands);
  },
  tag: (scope, args) => {
    if (args.includes('-d') || args.includes('--delete')) discardsWork(scope, 'tag.delete', RISK.ask);
    if (args.includes('-f') || args.includes('--force')) discardsWork(scope, 'tag.force', RISK.ask);
  },
  remote: (scope, args) => {
    const action = args[0];
    if (action === 'add' || action === 'set-url') scope.add({ code: `git.remote.${action}`, onTask: 0.5 });
    if (action === 'remove' || action === 'rm') discardsWork(scope, 'remote.remove', RISK.askLow);
  },
  config: (scope, args) => {
    const sensitive = args.find((arg) =>
      /^(core\.(hooksPath|sshCommand|pager|editor|fsmonitor|gitProxy)|alias\.|credential\.|url\..*\.insteadOf|http\..*proxy)/i.test(
        arg,
      ),
    );
    const global = args.includes('--global') || args.includes('--system');
    if (sensitive !== undefined)
      scope.add({ code: `git.config.executes:${sensitive}`, uncertain: true, destructive: RISK.askLow });
    else if (global && args.length > 2) scope.add({ code: 'git.config.global-write', onTask: 0.6 });
  },
  clone: (scope, args) => clonedInto(scope, args),
  submodule: (scope, args) => {
    if (args[0] === 'deinit' && args.includes('-f'))
      discardsWork(scope, 'submodule.deinit-force', RISK.askHigh);
    if (args[0] === 'add') clonedInto(scope, args.slice(1));
  },
  worktree: (scope, args) => {
    if (args[0] === 'remove' && (args.includes('-f') || args.includes('--force')))
      discardsWork(scope, 'worktree.remove-force', RISK.threshold);
    else if (args[0] === 'remove' || args[0] === 'prune')
      discardsWork(scope, `worktree.${args[0]}`, RISK.askLow);
  },
  rebase: (scope, args) => {
    if (args.includes('--root') || args.includes('--onto'))
      scope.add({ code: 'git.rebase.rewrite', destructive: RISK.askLow });
  },
  'send-email': (scope) => {
    scope.networkSink('git-send-email');
    scope.add({ code: 'git.send-email', exfil: RISK.ask, onTask: 0.2 });
  },
  'credential-store': (scope) => scope.secretSource('git-credential-store'),
  credential: (scope, args) => {
    if (args[0] === 'fill') {
      scope.secretSource('git-credential');
      scope.add({ code: 'secret.read:git-credential', exfil: RISK.ask, onTask: 0.3 });
    }
  },
  daemon: (scope) => scope.add({ code: 'net.serves-repository:git-daemon', exfil: RISK.ask, onTask: 0.3 }),
  instaweb: (scope) => scope.add({ code: 'net.serves-repository:instaweb', exfil: RISK.askLow, onTask: 0.5 }),
  svn: (scope) => scope.add({ code: 'git.svn', uncertain: true }),
  p4: (scope) => scope.add({ code: 'git.p4', uncertain: true }),
  'fast-import': (scope) => scope.add({ code: 'git.fast-import', destructive: RISK.ask }),
  replace: (scope) => scope.add({ code: 'git.replace', destructive: RISK.ask }),
  'read-tree': (scope, args) => {
    if (args.includes('-u') || args.includes('--reset')) discardsWork(scope, 'read-tree.reset', RISK.askHigh);
  },
};

export const GIT_RULES: ReadonlyMap<string, CommandRule> = new Map([['git', git]]);

/** Branches a team shares and protects: a push that rewrites them rewrites everyone's history. */
const SHARED_BRANCH =
  /^(main|master|trunk|develop|development|dev|staging|stable|production|prod|live|gh-pages|release([/-].*)?|hotfix([/-].*)?)$/;

/** Refspecs that all name a topic branch explicitly (`feature/x`, `HEAD:fix/y`), none a shared one. */
function topicBranchOnly(refspecs: readonly string[]): boolean {
  if (refspecs.length === 0) return false;
  return refspecs.every((refspec) => {
    const destination = (refspec.includes(':') ? refspec.slice(refspec.indexOf(':') + 1) : refspec).replace(
      /^refs\/heads\//,
      '',
    );
    return (
      destination !== '' &&
      destination !== 'HEAD' &&
      !destination.startsWith('refs/') &&
      !SHARED_BRANCH.test(destination)
    );
  });
}

/** The task names every ref a push deletes (`:name` or `--delete name`), and none is protected. */
function namesEveryDeletedRef(task: string, refs: readonly string[]): boolean {
  const names = refs.map((ref) => ref.replace(/^:/, '').replace(/^refs\/heads\//, ''));
  return (
    names.length > 0 &&
    taskMentions(task, 'delete') &&
    names.every(
      (name) =>
        !/^(main|master|trunk|develop|release\/.*|prod(uction)?)$/.test(name) && taskNamesWord(task, name),
    )
  );
}
