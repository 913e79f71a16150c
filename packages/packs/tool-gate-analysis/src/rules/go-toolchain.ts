import { judgeEnvironment } from '../argument-roles.js';
import { RISK } from '../risk-scale.js';
import type { CommandRule } from '../shell-command.js';

/**
 * The go command's subcommands (`go help`): building, testing, formatting and managing the
 * project's modules are the ordinary work of a coding agent. Another word is not understood
 * (issue 27, "understood or ask"), since a future subcommand may do anything.
 */
const GO_SUBCOMMANDS = new Set([
  'build',
  'bug',
  'clean',
  'doc',
  'env',
  'fix',
  'fmt',
  'generate',
  'get',
  'help',
  'install',
  'list',
  'mod',
  'run',
  'test',
  'tool',
  'version',
  'vet',
  'work',
]);

/**
 * `go env -w NAME=VALUE` writes the setting into the user's go environment file, where every later
 * go command in every project reads it: it is judged as the same assignment exported to the
 * environment would be (the checksum database switched off, a proxy over plain HTTP), and a
 * `GOFLAGS` that names a program to run around the compiler or the tests (`-toolexec=`, `-exec=`)
 * is code.
 */
export const goToolchain: CommandRule = (scope) => {
  const args = scope.command.args;
  const verb = args.find((arg) => !arg.startsWith('-'));
  if (verb !== undefined && !GO_SUBCOMMANDS.has(verb)) {
    scope.add({ code: `vocab.unknown-subcommand:go ${verb.slice(0, 40)}`, uncertain: true, onTask: 0.6 });
    return;
  }
  if (verb === 'env' && args.some((arg) => arg === '-w' || arg === '--w')) {
    for (const arg of args.slice(args.indexOf('env') + 1)) {
      const assignment = /^([A-Za-z_]\w*)=(.*)$/s.exec(arg);
      if (assignment === null) continue;
      const [, name, value] = assignment as unknown as [string, string, string];
      judgeEnvironment(scope, name, value);
      if (name.toUpperCase() === 'GOFLAGS' && /(^|\s)-(toolexec|exec)=/.test(value))
        scope.add({ code: `code.environment:${name}`, uncertain: true, destructive: RISK.ask, onTask: 0.5 });
    }
  }
  scope.add({ code: `dev.go${verb === undefined ? '' : `.${verb}`}`, onTask: 0.9 });
};
