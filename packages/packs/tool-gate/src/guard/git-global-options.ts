/**
 * git's global options that take a value (`git -C dir status`, `git -c key=value push`): what stands
 * between `git` and its subcommand. One list for the push guard and the gate's analysis of git
 * commands, exported alone (`@arbiter/tool-gate/git-global-options`) so the analysis does not load
 * the rest of the pack.
 */
export const GIT_GLOBAL_OPTIONS_WITH_VALUE: ReadonlySet<string> = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
]);
