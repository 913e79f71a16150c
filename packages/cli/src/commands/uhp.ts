import { type Command, InvalidArgumentError } from 'commander';
import { connectCommand } from './uhp-connect.js';
import { describeUhpFailure } from './uhp-failure-message.js';
import { harnessesCommand, modelsCommand, useCommand } from './uhp-listing.js';
import { runCommand } from './uhp-run.js';
import { cancelCommand, filesCommand, sessionsCommand, showCommand } from './uhp-sessions.js';

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0)
    throw new InvalidArgumentError('expected a positive integer.');
  return parsed;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Runs an action, turning UHP failures into one readable message (and exit status 1). */
function action<Args extends unknown[]>(run: (...args: Args) => Promise<void>) {
  return async (...args: Args) => {
    try {
      await run(...args);
    } catch (error) {
      if (error instanceof Error && error.name === 'ExitPromptError') {
        process.exitCode = 130; // Ctrl-C in the harness picker
        return;
      }
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
    .option('--api-key <key>', 'bearer key (default: $ARBITER_UHP_API_KEY); stored 0600, never shown')
    .option(
      '--harness <id>',
      'the harness to use (id or name); required with several harnesses off a terminal',
    )
    .action(
      action((url: string, options: { apiKey?: string; harness?: string }) => connectCommand(url, options)),
    );

  uhp
    .command('harnesses')
    .description('List the server’s harnesses (* marks the active one).')
    .action(action(harnessesCommand));
  uhp
    .command('models')
    .description('List the models of the active harness (or the whole catalogue).')
    .action(action(modelsCommand));
  uhp
    .command('use <harness>')
    .description('Make another harness active; saved sessions are kept.')
    .action(action((harness: string) => useCommand(harness)));

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
    .action(action((task: string, options: Parameters<typeof runCommand>[1]) => runCommand(task, options)));

  uhp
    .command('sessions')
    .description('List sessions on the server (of the active harness unless --all).')
    .option('--all', 'every harness')
    .action(action((options: { all?: boolean }) => sessionsCommand(options)));
  uhp
    .command('show <id>')
    .description('Show a task (resp_…) or a session’s transcript (id or local name).')
    .action(action((id: string) => showCommand(id)));
  uhp
    .command('files <session>')
    .description('List a session’s files; --out downloads them.')
    .option('--out <dir>', 'download into this directory')
    .action(action((session: string, options: { out?: string }) => filesCommand(session, options)));
  uhp
    .command('cancel <id>')
    .description('Cancel a task (resp_…) or whatever runs in a session.')
    .action(action((id: string) => cancelCommand(id)));
}
