import type { Command } from 'commander';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `arbiter guard …`: protections that run inside a tool, after any gate verdict (rule 7). */
export function registerGuardCommand(program: Command): void {
  const guard = program
    .command('guard')
    .description('Protections that still apply inside a tool after the gate allowed the call (rule 7).');
  guard
    .command('git-push')
    .description(
      'Refuse force pushes, pushes to protected branches and pushes to unconfigured remotes. ' +
        'Install as .git/hooks/pre-push (`exec arbiter guard git-push "$@"`), or check a command with --command.',
    )
    .argument('[remote]', 'remote name (passed by git to a pre-push hook)')
    .argument('[url]', 'remote URL (passed by git to a pre-push hook)')
    .option('--command <command>', 'check this shell command line instead of pre-push input')
    .option(
      '--protected <branch>',
      'a protected branch or pattern (repeatable; default main, master, release/*)',
      collect,
    )
    .option('-C, --cwd <dir>', 'the repository (default: the current directory)')
    .action(async (remote: string | undefined, url: string | undefined, options) => {
      const { runGuardGitPush } = await import('./git-push-action.js');
      await runGuardGitPush(remote, url, options);
    });
}
