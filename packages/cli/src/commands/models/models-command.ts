import { type Command, Option } from 'commander';
import { runReportingUsageErrors } from '../usage-error.js';
import type { AddCommandOptions, PullCommandOptions, RemoveCommandOptions } from './cache-action.js';
import type { ModelsOptions } from './models-action.js';

const MODELS_DIR_HELP =
  'model cache (default: $ARBITER_MODELS_DIR, else $ARBITER_DATA_DIR/models or ~/.arbiter/models)';

export function registerModelsCommand(program: Command): void {
  const models = program
    .command('models')
    .description('The model catalog and the local model cache: list (the default), pull, add, rm');
  const addListOptions = (command: Command) =>
    command
      .option('--config <file>', 'configuration file whose catalog to list (default: the embedded catalog)')
      .addOption(new Option('--url <url>', 'list the models of a running server; key from ARBITER_API_KEY'))
      .option('--models-dir <dir>', MODELS_DIR_HELP)
      .option('--json', 'print JSON')
      .action((options: ModelsOptions) =>
        runReportingUsageErrors('models', async () =>
          (await import('./models-action.js')).listModels(options),
        ),
      );
  // The default subcommand, so `arbiter models [--json]` lists as it always did.
  addListOptions(
    models
      .command('list', { isDefault: true })
      .description('Catalog pins and aliases, pulled models (sizes, licences), recommended models'),
  );

  models
    .command('pull')
    .description(
      'Download a recommended model or a Hugging Face repository into the model cache, verified by sha256 before use',
    )
    .argument('<model>', 'a recommended name (see `arbiter models list`) or owner/name[@revision]')
    .option('--file <path...>', 'files of the repository to pull (default: the NLI files, or its only GGUF)')
    .option('--offline', 'use the cache only; fail if the model is not there (also HF_HUB_OFFLINE=1)')
    .option('--accept-license', 'pull a model whose licence is not one Arbiter accepts by default')
    .option('--models-dir <dir>', MODELS_DIR_HELP)
    .action((model: string, options: PullCommandOptions) =>
      runReportingUsageErrors('models pull', async () =>
        (await import('./cache-action.js')).pullCommand(model, options),
      ),
    );

  models
    .command('add')
    .description(
      'Put a model into the cache from a local directory (no network): each file copied and hashed, the manifest written last',
    )
    .argument('<dir>', 'the directory that holds the model’s files, laid out as in its repository')
    .argument(
      '<model>',
      'a recommended name, or owner/name[@commit] (without a commit it is recorded as `local`)',
    )
    .option(
      '--file <path...>',
      'files of the directory to add (default: the model’s files, else the NLI set or the only GGUF)',
    )
    .option('--license <id>', 'the licence of an owner/name model, as its card states it (e.g. apache-2.0)')
    .option('--accept-license', 'add a model whose licence is not one Arbiter accepts by default')
    .option('--models-dir <dir>', MODELS_DIR_HELP)
    .action((dir: string, model: string, options: AddCommandOptions) =>
      runReportingUsageErrors('models add', async () =>
        (await import('./cache-action.js')).addCommand(dir, model, options),
      ),
    );

  models
    .command('rm')
    .description('Remove a pulled model (every revision of it, and interrupted pulls) from the model cache')
    .argument('<model>', 'a recommended name, owner/name or owner/name@revision')
    .option('--models-dir <dir>', MODELS_DIR_HELP)
    .action((model: string, options: RemoveCommandOptions) =>
      runReportingUsageErrors('models rm', async () =>
        (await import('./cache-action.js')).removeCommand(model, options),
      ),
    );
}
