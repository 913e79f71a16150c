import { type Command, InvalidArgumentError, Option } from 'commander';
import { runReportingUsageErrors } from '../usage-error.js';
import type { DecideCommandOptions } from './decide-action.js';

export function registerDecideCommand(program: Command): void {
  program
    .command('decide')
    .description(
      'Ask typed questions about a state: over HTTP with --url (or ARBITER_BASE_URL), otherwise with the built-in engine in this process',
    )
    .requiredOption('--state <file|->', 'the state: a file or - for stdin (JSON object/array, else text)')
    .requiredOption(
      '--questions <file>',
      'question map, JSON or YAML: { id: { type, instructions, criteria } }',
    )
    .option('--model <name>', 'model pin or alias (default: the server or catalog default)')
    .option('--json', 'print the whole result as JSON')
    .option('--dry-run', 'print the redacted request that would be sent, and send nothing')
    .addOption(
      new Option('--url <url>', 'Arbiter server base URL; key from ARBITER_API_KEY').env('ARBITER_BASE_URL'),
    )
    .option('--config <file>', 'catalog configuration for the in-process engine (docs/configuration.md)')
    .addOption(
      new Option('--timeout <ms>', 'budget of the call, retries included')
        .argParser(positiveInteger)
        .default(5_000),
    )
    .action((options: DecideCommandOptions, command: Command) => {
      const urlSource = command.getOptionValueSource('url') === 'env' ? 'environment' : 'flag';
      return runReportingUsageErrors('decide', async () =>
        (await import('./decide-action.js')).decide({ ...options, urlSource }),
      );
    });
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new InvalidArgumentError('expected a positive integer');
  return number;
}
