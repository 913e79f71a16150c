import { type Command, InvalidArgumentError, Option } from 'commander';
import { UHP_API_KEY_ENV } from '../uhp/api-key-env.js';
import type { GradeCommandOptions } from './grade-action.js';
import { USAGE_EXIT_CODE } from './grade-exit-codes.js';

// The rubric, engine, UHP and AI SDK code load only when `arbiter grade` runs, so every other
// command (notably the tool-gate hook, run on each tool call of a host) starts fast.
const action = () => import('./grade-action.js');

export { GRADE_EXIT_CODES } from './grade-exit-codes.js';

export function registerGradeCommand(program: Command): void {
  program
    .command('grade')
    .description(
      'Grade work against a rubric through the decision service (exit 0 satisfied, 1 needs_revision, 2 unsatisfied or ungraded, 3 bad input)',
    )
    .requiredOption('--rubric <file>', 'rubric file (YAML or JSON; see docs/grading.md)')
    .option('--work <file|->', 'the work to grade: a file, or - for standard input')
    .option(
      '--model <pin>',
      'decision model pin or alias (default: the server default, or arbiter-latest in process)',
    )
    .addOption(
      new Option(
        '--url <url>',
        'decision server base URL (default: the built-in engine in this process)',
      ).env('ARBITER_BASE_URL'),
    )
    .addOption(
      new Option('--timeout <ms>', 'time budget of the decision call, retries included')
        .argParser((value) => positiveIntegerOption(value))
        .default(5_000),
    )
    .option('--json', 'print the grade (and feedback) as JSON')
    .addOption(
      new Option(
        '--feedback-model <spec>',
        'coding model that writes revision feedback: openai-compatible:<baseURL>#<model>, openai:<model>, anthropic:<model>, google:<model>',
      ).env('ARBITER_FEEDBACK_MODEL'),
    )
    .option(
      '--revise-with <response-id>',
      'grade the work of this UHP response and send feedback back into its session',
    )
    .option(
      '--uhp-url <url>',
      'UHP server base URL for --revise-with (default: the saved `arbiter uhp connect` connection)',
    )
    .addOption(new Option('--api-key <key>', 'UHP API key for --uhp-url').env(UHP_API_KEY_ENV))
    .option('--artifact <name>', 'with --revise-with: grade this produced file instead of the final message')
    .addOption(
      new Option('--max-rounds <n>', 'with --revise-with: most revisions requested (default: 3)').argParser(
        (value) => positiveIntegerOption(value),
      ),
    )
    .option(
      '--revision-instructions <text>',
      'with --revise-with: added after the feedback in each revision turn',
    )
    .exitOverride((error) => {
      // Commander's own usage errors must not look like an outcome (1 is needs_revision).
      process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT_CODE);
    })
    .action(async (options: GradeCommandOptions) => {
      process.exitCode = await (await action()).runGrade(options);
    });
}

function positiveIntegerOption(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0) {
    throw new InvalidArgumentError('must be a positive whole number');
  }
  return parsed;
}
