import { invocationIo } from '../../invocation-io.js';
import { readStandardInput } from '../../standard-input.js';

export interface GuardGitPushOptions {
  readonly command?: string;
  readonly protected?: string[];
  readonly cwd?: string;
}

/**
 * `arbiter guard git-push`: as a git pre-push hook (`<remote name> <url>` as arguments, the ref
 * updates on stdin), or with `--command` to check a shell command line before running it.
 * Refusals go to stderr and exit with status 1, which makes git abort the push.
 */
export async function runGuardGitPush(
  remoteName: string | undefined,
  remoteUrl: string | undefined,
  options: GuardGitPushOptions,
): Promise<void> {
  const { guardGitPush, guardPrePush } = await import('@arbiter/tool-gate');
  const cwd = options.cwd ?? process.cwd();
  const protectedBranches =
    options.protected === undefined || options.protected.length === 0
      ? {}
      : { protectedBranches: options.protected };
  let result: ReturnType<typeof guardGitPush>;
  if (options.command !== undefined) {
    result = guardGitPush({ command: options.command, cwd, ...protectedBranches });
  } else {
    if (remoteName === undefined || remoteUrl === undefined) {
      throw new Error(
        'as a pre-push hook the guard needs <remote name> <url> (git passes them); or use --command',
      );
    }
    result = guardPrePush({
      remoteName,
      remoteUrl,
      updates: await readStandardInput(),
      cwd,
      ...protectedBranches,
    });
  }
  if (result.allowed) return;
  for (const violation of result.violations)
    invocationIo().writeStderr(`arbiter guard: ${violation.message}\n`);
  process.exitCode = 1;
}
