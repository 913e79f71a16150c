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
    /\b(delet(e|es|ed|ing)|remov(e|es|ed|ing)|clean(s|ed|ing| up)?|purg(e|ing)|drop|wipe|reset|tear ?down|destroy)\b/i,
  network: /\b(download|fetch|upload|api|endpoint|server|request|curl|http)\b/i,
};

export function taskMentions(task: string, activity: TaskActivity): boolean {
  return ACTIVITY_WORDS[activity].test(task);
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
