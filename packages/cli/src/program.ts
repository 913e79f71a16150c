import { Command } from 'commander';
import { runCli } from './cli-run.js';
import { registerBillingCommand } from './commands/billing/billing-command.js';
import { registerCalibrateCommand } from './commands/calibrate/calibrate-command.js';
import { registerDecideCommand } from './commands/decide/decide-command.js';
import { registerGateCommand } from './commands/gate/gate-command.js';
import { registerGradeCommand } from './commands/grade/grade-command.js';
import { registerGuardCommand } from './commands/guard/guard-command.js';
import { registerKeysCommand } from './commands/keys/keys-command.js';
import { registerModelsCommand } from './commands/models/models-command.js';
import { registerRedactCommand } from './commands/redact/redact-command.js';
import { registerServeCommand } from './commands/serve/serve-command.js';
import { registerUhpCommand } from './commands/uhp/uhp-command.js';

import type { InvocationRunner, ProgramSettings } from './program-settings.js';

export type { ProgramSettings } from './program-settings.js';

/**
 * Builds the `arbiter` command. Each command family lives in `commands/<family>/` and registers
 * itself from `commands/<family>/<family>-command.ts`; keep this file a plain list.
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
  registerGateCommand(program, runGateInvocation);
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
  registerGateCommand(program, runGateInvocation);
  return program;
}

/** How the gate daemon runs a forwarded `gate hook`: through the gate-only program. */
const runGateInvocation: InvocationRunner = (argv, settings) => runCli(argv, settings, createGateProgram);

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
