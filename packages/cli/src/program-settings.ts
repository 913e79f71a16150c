import type { OutputConfiguration } from 'commander';

export interface ProgramSettings {
  /** Where commander writes help and usage errors (default: the process's streams). */
  readonly output?: OutputConfiguration;
  /** Throw a `CommanderError` instead of exiting the process (for a process serving many runs). */
  readonly exitOverride?: boolean;
}

/**
 * Runs one `arbiter` invocation and returns the exit code it asks for. Handed to the commands that
 * run invocations themselves (the gate daemon), so that no command imports the program that
 * registers it.
 */
export type InvocationRunner = (
  argv: readonly string[],
  settings: ProgramSettings,
) => Promise<number | undefined>;
