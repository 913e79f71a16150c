/**
 * What the task statement licenses. Routine development and read-only inspection serve any
 * coding task; actions with effects beyond the workspace (publishing, pushing, deploying,
 * installing from the network, touching production) serve it only when the task says so.
 */
export type TaskActivity = 'push' | 'publish' | 'deploy' | 'install' | 'production' | 'delete' | 'network';

const ACTIVITY_WORDS: Readonly<Record<TaskActivity, RegExp>> = {
  push: /\b(push(es|ed|ing)?|pull request|open a pr|ship|sync (it|the branch) )/i,
  publish: /\b(publish(es|ed|ing)?|release|upload to (npm|pypi|crates)|cut a release)\b/i,
  deploy: /\b(deploy(s|ed|ing|ment)?|roll ?out|ship to)\b/i,
  install: /\b(install(s|ed|ing)?|add (a |the )?(dependency|package|library)|upgrade|dependenc(y|ies))\b/i,
  production: /\b(prod(uction)?|live (site|system|database))\b/i,
  delete:
    /\b(delet(e|es|ed|ing)|remov(e|es|ed|ing)|clean(s|ed|ing| up)?|purg(e|ing)|drop|wipe|reset|tear ?down|destroy|discard(s|ed|ing)?|revert(s|ed|ing)?|undo|throw (\w+ )?away)\b/i,
  network: /\b(download|fetch|upload|api|endpoint|server|request|curl|http)\b/i,
};

export function taskMentions(task: string, activity: TaskActivity): boolean {
  return ACTIVITY_WORDS[activity].test(task);
}

/** True when the task names `word` as a word of its own (`lodash` in "Bump lodash to 4.17"). */
export function taskNamesWord(task: string, word: string): boolean {
  if (word.length < 2 || !task.toLowerCase().includes(word.toLowerCase())) return false;
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[\\s\`'"(])${escaped}($|[\\s\`'"@).,;:!?])`, 'i').test(task);
}

/**
 * True when the task names the path (or its last component): `rm -rf build` when the task says
 * "clean the build directory" is the task, not an accident.
 */
export function taskNamesPath(task: string, path: string): boolean {
  if (task === '') return false;
  const trimmed = path.replace(/\/+$/, '').replace(/^\.\//, '');
  const last = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  if (last.length < 3 || /[*?$`]/.test(last)) return false;
  if (!task.toLowerCase().includes(last.toLowerCase())) return false;
  const escaped = last.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return (
    new RegExp(`(^|[\\s\`'"/(])${escaped}($|[\\s\`'"/).,;:!?])`, 'i').test(task) &&
    taskMentions(task, 'delete')
  );
}

/** The task says to look, not touch: "do not modify", "without changing", "read-only". */
export function taskForbidsChanges(task: string): boolean {
  return /\b(do not|don't|never|without|no)\s+(modify|modifying|modifications?|change|changing|changes|edit|editing|edits|write|writing|touch|touching|commit|committing)\b|\bread[- ]only\b/i.test(
    task,
  );
}

/** Programs that change files or repository state (the changes a read-only task rules out). */
const CHANGING_PROGRAMS = new Set([
  'rm',
  'rmdir',
  'unlink',
  'mv',
  'cp',
  'ln',
  'touch',
  'mkdir',
  'tee',
  'truncate',
  'shred',
  'chmod',
  'chown',
  'install',
  'patch',
  'dd',
  'npm',
  'pnpm',
  'yarn',
  'pip',
  'pip3',
  'cargo',
  'gem',
  'go',
  'make',
]);
const CHANGING_GIT = new Set([
  'add',
  'commit',
  'push',
  'merge',
  'rebase',
  'reset',
  'checkout',
  'switch',
  'restore',
  'clean',
  'stash',
  'rm',
  'mv',
  'cherry-pick',
  'revert',
  'am',
  'apply',
  'tag',
  'branch',
  'pull',
  'init',
  'clone',
  'filter-branch',
  'filter-repo',
]);

export function changesFiles(program: string, args: readonly string[]): boolean {
  if (program === 'git') return CHANGING_GIT.has(args.find((arg) => !arg.startsWith('-')) ?? '');
  if (program === 'sed')
    return args.some((arg) => arg === '-i' || arg.startsWith('--in-place') || /^-[a-zA-Z]*i/.test(arg));
  return CHANGING_PROGRAMS.has(program);
}

/** Verbs that stand for the action itself, not a target (`kubectl delete pod x`). */
const ACTION_WORDS = new Set([
  'delete',
  'del',
  'rm',
  'remove',
  'drop',
  'destroy',
  'uninstall',
  'push',
  'branch',
  'kill',
  'stop',
  'terminate',
  'prune',
  'purge',
  'rmi',
  'clean',
  'reset',
  'truncate',
  'flush',
  // git's verbs that discard a file's uncommitted changes (`git checkout -- f`, `git restore f`).
  'checkout',
  'restore',
]);
/**
 * Options that widen a verb beyond what any list of names says. (`git branch -D name` is not one:
 * it removes the named branch even when unmerged, which is what a task that names it asks.)
 */
const BROADENING =
  /^(--all|-a|-A|--all-namespaces|-l|--selector|--field-selector|--cascade|--mirror|--force|-f)$/;

/**
 * Principle 8: a task that names the exact targets of a destructive verb ("delete the pod
 * api-7d9 in staging", "drop the local test database app_test") licenses the verb on those
 * targets and nothing broader: every operand must be an action word or be named in the task,
 * no option may widen the verb, and no operand may reach beyond one workspace path.
 */
export function taskNamesEveryOperand(
  task: string,
  args: readonly string[],
  scopeOf: (operand: string) => string,
): boolean {
  if (task === '' || !taskMentions(task, 'delete')) return false;
  const operands = args.filter((arg) => !arg.startsWith('-'));
  if (operands.length === 0 || args.some((arg) => BROADENING.test(arg))) return false;
  let named = 0;
  for (const operand of operands) {
    if (/[*?$`{}]/.test(operand)) return false;
    if (ACTION_WORDS.has(operand.toLowerCase())) continue;
    if (operand.length < 3) return false;
    if (operand.includes('/') || operand.startsWith('.') || operand.startsWith('~')) {
      const where = scopeOf(operand);
      if (where !== 'workspace' && where !== 'temp') return false;
    }
    // `migrations/` names the directory the task calls `migrations`.
    const escaped = operand.replace(/(.)\/+$/, '$1').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (!new RegExp(`(^|[\\s\`'"(])${escaped}($|[\\s\`'").,;:!?])`, 'i').test(task)) return false;
    named += 1;
  }
  return named > 0;
}
