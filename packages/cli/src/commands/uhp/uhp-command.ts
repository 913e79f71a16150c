import { type Command, InvalidArgumentError } from 'commander';
import type { RunOptions } from './run-action.js';

// The implementations (client, renderer, picker) load only when a `uhp` command runs, so they add
// nothing to the start-up of every other `arbiter` command.
const connect = () => import('./connect-action.js');
const listing = () => import('./listing-action.js');
const run = () => import('./run-action.js');
const sessions = () => import('./sessions-action.js');

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0)
    throw new InvalidArgumentError('expected a positive integer.');
  return parsed;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Runs an action, turning UHP failures into one readable message (and exit status 1). */
function action<Args extends unknown[]>(command: (...args: Args) => Promise<void>) {
  return async (...args: Args) => {
    try {
      await command(...args);
    } catch (error) {
      if (error instanceof Error && error.name === 'ExitPromptError') {
        process.exitCode = 130; // Ctrl-C in the harness picker
        return;
      }
      const { describeUhpFailure } = await import('./failure-message.js');
      throw new Error(describeUhpFailure(error), { cause: error });
    }
  };
}

/** `arbiter uhp …`: the UHP client at the terminal. */
export function registerUhpCommand(program: Command): void {
  const uhp = program
    .command('uhp')
    .description('Hand work to any UHP server: connect, pick a harness, run tasks, follow sessions.');

  uhp
    .command('connect <url>')
    .description('Read a server’s discovery document and harnesses, choose a harness, save the connection.')
    .option(
      '--api-key <key>',
      'bearer key (default: $ARBITER_UHP_API_KEY, then $ARBITER_API_KEY); stored 0600, never shown',
    )
    .option(
      '--harness <id>',
      'the harness to use (id or name); required with several harnesses off a terminal',
    )
    .action(
      action(async (url: string, options: { apiKey?: string; harness?: string }) =>
        (await connect()).connectCommand(url, options),
      ),
    );

  uhp
    .command('harnesses')
    .description('List the server’s harnesses (* marks the active one).')
    .action(action(async () => (await listing()).harnessesCommand()));
  uhp
    .command('models')
    .description('List the models of the active harness (or the whole catalogue).')
    .action(action(async () => (await listing()).modelsCommand()));
  uhp
    .command('use <harness>')
    .description('Make another harness active; saved sessions are kept.')
    .action(action(async (harness: string) => (await listing()).useCommand(harness)));

  uhp
    .command('run <task>')
    .description('Run a task on the active harness and follow it live.')
    .option('--file <path>', 'attach a file (repeatable)', collect)
    .option('--model <id>', 'canonical model id (default: the harness’s)')
    .option('--max-output-tokens <n>', 'upper bound on generated tokens', positiveInteger)
    .option('--continue', 'continue the latest session of the active harness')
    .option('--session <name>', 'continue (or start) the named session; a server session id also works')
    .option('--out <dir>', 'download produced files into this directory')
    .option('--json', 'print the normalised events as JSON lines on stdout, nothing else')
    .action(action(async (task: string, options: RunOptions) => (await run()).runTaskCommand(task, options)));

  uhp
    .command('sessions')
    .description('List sessions on the server (of the active harness unless --all).')
    .option('--all', 'every harness')
    .action(action(async (options: { all?: boolean }) => (await sessions()).sessionsCommand(options)));
  uhp
    .command('show <id>')
    .description('Show a task (resp_…) or a session’s transcript (id or local name).')
    .action(action(async (id: string) => (await sessions()).showCommand(id)));
  uhp
    .command('files <session>')
    .description('List a session’s files; --out downloads them.')
    .option('--out <dir>', 'download into this directory')
    .action(
      action(async (session: string, options: { out?: string }) =>
        (await sessions()).filesCommand(session, options),
      ),
    );
  uhp
    .command('cancel <id>')
    .description('Cancel a task (resp_…) or whatever runs in a session.')
    .action(action(async (id: string) => (await sessions()).cancelCommand(id)));
}
