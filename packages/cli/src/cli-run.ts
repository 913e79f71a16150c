import { type Command, CommanderError } from 'commander';
import { EXIT_USAGE, UsageError } from './commands/usage-error.js';
import { invocationIo } from './invocation-io.js';
import type { ProgramSettings } from './program-settings.js';

/** Commander's ways of ending a run that are not mistakes: help or the version asked for. */
const REQUESTED_OUTPUT = new Set(['commander.helpDisplayed', 'commander.version']);

/**
 * The exit status of a run that commander ended: 0 for help or the version asked for, the status a
 * command chose with `command.error()`, and 2 (usage) for everything commander refuses itself:
 * an unknown command or option, a missing argument, a command group without its subcommand.
 */
function exitStatusOf(error: CommanderError): number {
  if (REQUESTED_OUTPUT.has(error.code)) return 0;
  if (error.code === 'commander.error') return error.exitCode;
  if (error.code === 'commander.help' && error.exitCode === 0) return 0;
  return EXIT_USAGE;
}

/**
 * Runs one `arbiter` invocation (`argv` after the program name) and returns the exit code it
 * asks for; undefined when the command succeeded or set `process.exitCode` itself. `build` makes
 * the command tree (the gate daemon builds only the `gate` family).
 *
 * A bare `arbiter` prints the help on standard output and succeeds: it is how a newcomer asks what
 * there is, not a mistake (docs/user-guide.md, Exit status).
 */
export async function runCli(
  argv: readonly string[],
  settings: ProgramSettings,
  build: (settings: ProgramSettings) => Command,
): Promise<number | undefined> {
  try {
    const program = build({ ...settings, exitOverride: true });
    if (argv.length === 0) {
      program.outputHelp();
      return 0;
    }
    await program.parseAsync([...argv], { from: 'user' });
    return undefined;
  } catch (error) {
    // Commander has already written its message.
    if (error instanceof CommanderError) return exitStatusOf(error);
    invocationIo().writeStderr(`arbiter: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof UsageError ? EXIT_USAGE : 1;
  }
}
