import { type Command, Option } from 'commander';
import type { ModelsOptions } from './models-action.js';
import { runCommand } from './usage-error.js';

export function registerModelsCommand(program: Command): void {
  program
    .command('models')
    .description('List the model catalog: pins and aliases (from --config, or from a server with --url)')
    .option('--config <file>', 'configuration file whose catalog to list (default: the embedded catalog)')
    .addOption(new Option('--url <url>', 'list the models of a running server; key from ARBITER_API_KEY'))
    .option('--json', 'print JSON')
    .action((options: ModelsOptions) =>
      runCommand('models', async () => (await import('./models-action.js')).listModels(options)),
    );
}
