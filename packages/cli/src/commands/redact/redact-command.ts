import type { Command } from 'commander';
import { invocationIo } from '../../invocation-io.js';
import { readStandardInput } from '../../standard-input.js';
import { runReportingUsageErrors } from '../usage-error.js';

export function registerRedactCommand(program: Command): void {
  program
    .command('redact')
    .description(
      'Copy standard input to standard output with secrets replaced (the rules the client applies)',
    )
    .action(() =>
      runReportingUsageErrors('redact', async () => {
        // Loaded when the command runs, so other commands do not pay for the redaction rules.
        const { redact } = await import('@arbiter/decision');
        invocationIo().writeStdout(redact(await readStandardInput()));
        return 0;
      }),
    );
}
