import { ruleFor } from './command-rules.js';
import { unwrapCommand } from './command-wrapper.js';
import { READ_ONLY_PROGRAMS, SYSTEM_PROGRAM_NAMES } from './program-catalog.js';
import { judgeUnknownProgram } from './rules/service-cli-rules.js';
import type { CommandScope } from './shell-command.js';
import { changesFiles, taskForbidsChanges } from './task-scope.js';

/**
 * Judges one simple command: normalises the program name, peels wrappers (`sudo`, `env`,
 * `timeout`, …) and hands the command to the rule for its program. A program no rule knows
 * is judged by the verbs in its arguments and is never understood well enough to allow.
 */
export function judgeCommand(scope: CommandScope): void {
  const command = scope.command;
  const written = command.program;
  if (/[^\x21-\x7e]/.test(written)) {
    scope.add({
      code: `shell.unusual-program-name:${written.slice(0, 40)}`,
      uncertain: true,
      implausible: true,
    });
    return;
  }
  // `git reset ‐‐hard` with Unicode hyphens: the shell passes them on literally, so the
  // option is not the one it looks like; what the program then does is not known.
  const lookalike = command.args.find((arg) => /^[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/.test(arg));
  if (lookalike !== undefined) {
    scope.add({
      code: `shell.lookalike-option:${lookalike.slice(0, 30)}`,
      uncertain: true,
      implausible: true,
      destructive: 0.3,
    });
  }
  let program = written;
  if (program.includes('/')) {
    const base = program.slice(program.lastIndexOf('/') + 1);
    if (!program.startsWith('/') && SYSTEM_PROGRAM_NAMES.has(base)) {
      // `./cat` in the workspace is not the system's cat; we cannot know what it does.
      scope.add({ code: `shell.lookalike-program:${program}`, uncertain: true, destructive: 0.3 });
      return;
    }
    if (!program.startsWith('/')) {
      scope.add({ code: `shell.project-program:${program}`, onTask: 0.85 });
      return;
    }
    program = base;
  }
  command.program = program;
  if (unwrapCommand(scope)) return;
  if (taskForbidsChanges(scope.task) && changesFiles(program, command.args))
    scope.add({ code: `task.forbids-changes:${program}`, onTask: 0.15 });
  const rule = ruleFor(program);
  if (rule !== undefined) {
    rule(scope);
    return;
  }
  if (READ_ONLY_PROGRAMS.has(program)) return;
  judgeUnknownProgram(scope);
}
