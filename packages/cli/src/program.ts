import { Command, type OutputConfiguration } from 'commander';
import { registerBillingCommand } from './commands/billing.js';
import { registerCalibrateCommand } from './commands/calibrate.js';
import { registerDecideCommand } from './commands/decide.js';
import { registerGateCommand } from './commands/gate.js';
import { registerGradeCommand } from './commands/grade.js';
import { registerGuardCommand } from './commands/guard.js';
import { registerKeysCommand } from './commands/keys.js';
import { registerModelsCommand } from './commands/models.js';
import { registerRedactCommand } from './commands/redact.js';
import { registerServeCommand } from './commands/serve.js';
import { registerUhpCommand } from './commands/uhp.js';

export interface ProgramSettings {
  /** Where commander writes help and usage errors (default: the process's streams). */
  readonly output?: OutputConfiguration;
  /** Throw a `CommanderError` instead of exiting the process (for a process serving many runs). */
  readonly exitOverride?: boolean;
}

/**
 * Builds the `arbiter` command. Each command family lives in `commands/<name>.ts` and
 * registers itself here; keep this file a plain list.
 */
export function createProgram(settings: ProgramSettings = {}): Command {
  const program = createProgramRoot(settings);

  // Command registrations (one line each):
  registerServeCommand(program);
  registerDecideCommand(program);
  registerRedactCommand(program);
  registerKeysCommand(program);
  registerModelsCommand(program);
  registerGradeCommand(program);
  registerGateCommand(program);
  registerGuardCommand(program);
  registerCalibrateCommand(program);
  registerUhpCommand(program);
  registerBillingCommand(program);

  return program;
}

/**
 * The `arbiter` command with only the `gate` family: what the gate daemon needs to run a
 * forwarded `gate hook` exactly as the full program would, without building every other command
 * on each call.
 */
export function createGateProgram(settings: ProgramSettings = {}): Command {
  const program = createProgramRoot(settings);
  registerGateCommand(program);
  return program;
}

function createProgramRoot(settings: ProgramSettings): Command {
  const program = new Command('arbiter');
  // Before any registration: subcommands copy these settings when they are created.
  if (settings.output) program.configureOutput(settings.output);
  if (settings.exitOverride) program.exitOverride();
  return program
    .description(
      'Typed decisions, a tool gate for AI agents, a UHP harness server and client, rubric grading.',
    )
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: true });
}
