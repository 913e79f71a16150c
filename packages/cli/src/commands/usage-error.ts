import { invocationIo } from '../invocation-io.js';

/** Exit status of the commands in docs/user-guide.md: 0 success, 1 failure at run time, 2 bad usage or input. */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Bad flags, files or input: reported on stderr with exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Runs a command action; a `UsageError` becomes a one-line message and exit 2, anything else
 * propagates to the launcher (message and exit 1).
 */
export async function runReportingUsageErrors(
  command: string,
  action: () => Promise<number | undefined>,
): Promise<void> {
  try {
    const status = await action();
    if (status !== undefined) process.exitCode = status;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    invocationIo().writeStderr(`arbiter ${command}: ${error.message}\n`);
    process.exitCode = EXIT_USAGE;
  }
}
