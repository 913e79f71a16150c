import { type Command, CommanderError } from 'commander';
import { invocationIo } from './invocation-io.js';
import { createProgram, type ProgramSettings } from './program.js';

/**
 * Runs one `arbiter` invocation (`argv` after the program name) and returns the exit code it
 * asks for; undefined when the command succeeded or set `process.exitCode` itself. `build` makes
 * the command tree (the gate daemon builds only the `gate` family).
 */
export async function runCli(
  argv: readonly string[],
  settings: ProgramSettings = {},
  build: (settings: ProgramSettings) => Command = createProgram,
): Promise<number | undefined> {
  try {
    await build(settings).parseAsync([...argv], { from: 'user' });
    return undefined;
  } catch (error) {
    // Thrown only with `exitOverride`; commander has already written its message.
    if (error instanceof CommanderError) return error.exitCode;
    invocationIo().writeStderr(`arbiter: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
