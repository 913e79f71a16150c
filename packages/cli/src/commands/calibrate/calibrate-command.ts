import { type Command, Option } from 'commander';
import type { CalibrateOptions } from './calibrate-action.js';

// The engine, PNG and YAML code load only when `arbiter calibrate` runs.
const action = () => import('./calibrate-action.js');

export function registerCalibrateCommand(program: Command): void {
  program
    .command('calibrate')
    .description(
      'Fit a temperature per question type for an openai-compatible model from labelled data, report ECE and Brier before/after, store it in the catalog configuration',
    )
    .requiredOption('--model <pin>', 'catalog pin (or alias) of an openai-compatible model')
    .requiredOption(
      '--data <file>',
      'labelled examples, one JSON per line: {"state", "question", "expected"}',
    )
    .addOption(
      new Option('--config <file>', 'configuration file (YAML or JSON) whose catalog holds the model')
        .env('ARBITER_CONFIG')
        .makeOptionMandatory(),
    )
    .option('--out <file>', 'write a reliability diagram (PNG)')
    .option('--json', 'print the report as JSON')
    .action(async (options: CalibrateOptions) => (await action()).calibrateCommand(options));
}
