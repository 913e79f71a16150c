import { judgeArguments } from './argument-roles.js';
import { ruleFor } from './command-rules.js';
import { unwrapCommand } from './command-wrapper.js';
import { WINDOWS_SHELL_RULES } from './powershell/powershell-rules.js';
import { READ_ONLY_PROGRAMS, SYSTEM_PROGRAM_NAMES } from './program-catalog.js';
import { RISK } from './risk-scale.js';
import { DRY_RUN_FLAGS } from './rules/cli-verb.js';
import { judgeProgramWithoutRule } from './rules/cli-verb-judgement.js';
import { judgeRemoteCode } from './rules/remote-code.js';
import type { CommandScope } from './shell-command.js';
import { changesFiles, taskForbidsChanges, taskNamesEveryOperand } from './task-scope.js';
import {
  judgeNamedSecretGetter,
  judgeOptionVocabulary,
  judgePlainHttpSource,
  judgeSecuritySetter,
  judgeWeakKey,
} from './vocabulary/vocabulary-judge.js';

/**
 * Judges one simple command: normalises the program name, peels wrappers (`sudo`, `env`,
 * `timeout`, …) and hands the command to the rule for its program. A program no rule knows
 * is judged by the verbs in its arguments and is never understood well enough to allow.
 */
export function judgeCommand(outer: CommandScope): void {
  let scope = outer;
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
      destructive: RISK.askLow,
    });
  }
  // `sh -c "{}"` under xargs or find: the command is whatever the input holds.
  if (/[{}]/.test(written)) {
    scope.add({
      code: `shell.dynamic-command:${written.slice(0, 40)}`,
      uncertain: true,
      destructive: RISK.askLow,
    });
    return;
  }
  let program = written;
  // Principle 2: a file this same call wrote and now runs by its path is code the gate has not
  // read as the shell will run it (escapes, shebangs, later appends): never allowed unread.
  if (program.includes('/') && scope.written(scope.path(program).normalised))
    scope.add({
      code: `code.written-then-run:${scope.path(program).normalised}`,
      uncertain: true,
      destructive: RISK.askHigh,
      onTask: 0.4,
    });
  if (program.includes('/')) {
    const base = program.slice(program.lastIndexOf('/') + 1);
    if (!program.startsWith('/') && SYSTEM_PROGRAM_NAMES.has(base)) {
      // `./cat` in the workspace is not the system's cat; we cannot know what it does.
      scope.add({ code: `shell.lookalike-program:${program}`, uncertain: true, destructive: RISK.askLow });
      return;
    }
    const forwardsTo = PROJECT_WRAPPERS.get(base);
    if (!program.startsWith('/') && forwardsTo !== undefined) {
      // A project's wrapper for a known tool (`bin/rails`, `./mvnw`, `./manage.py`) passes its
      // arguments to that tool, so they mean what they mean to the tool.
      scope.runArgv([forwardsTo, ...command.args], `project-wrapper:${program}`);
      return;
    }
    if (!program.startsWith('/')) {
      scope.add({ code: `shell.project-program:${program}`, onTask: 0.85 });
      judgeArguments(scope);
      return;
    }
    program = base;
  }
  command.program = program;
  // A wrapper's own options are arguments too (`strace -o /etc/ld.so.preload ls`).
  scope = refinedByIntent(scope);
  // A Windows shell's script is read by its own rule (powershell-rules.ts): its options are not
  // the POSIX options the argument roles read.
  if (!WINDOWS_SHELL_RULES.has(program)) {
    judgeArguments(scope);
    judgeRemoteCode(scope);
  }
  if (unwrapCommand(scope)) return;
  if (taskForbidsChanges(scope.task) && changesFiles(program, command.args))
    scope.add({ code: `task.forbids-changes:${program}`, onTask: 0.15 });
  // Whatever the rule says, an option the program's vocabulary does not list is not understood,
  // and a getter asked for a credential's name reveals it.
  judgeOptionVocabulary(scope);
  judgeNamedSecretGetter(scope);
  judgeSecuritySetter(scope);
  judgeWeakKey(scope);
  judgePlainHttpSource(scope);
  const rule = ruleFor(program);
  if (rule !== undefined) {
    rule(scope);
    return;
  }
  if (READ_ONLY_PROGRAMS.has(program)) return;
  judgeProgramWithoutRule(scope);
}

/**
 * Conventional project wrappers and the tool each forwards to: Rails binstubs, the Maven and
 * Gradle wrappers, Django's and Laravel's entry points.
 */
const PROJECT_WRAPPERS: ReadonlyMap<string, string> = new Map([
  ['rails', 'rails'],
  ['rake', 'rake'],
  ['bundle', 'bundle'],
  ['mvnw', 'mvn'],
  ['gradlew', 'gradle'],
  ['manage.py', 'manage.py'],
  ['artisan', 'artisan'],
]);

/** Programs whose plan, preview or diff subcommand shows a change without making it. */
const PLANNING_TOOLS = new Set(['terraform', 'tofu', 'terragrunt', 'pulumi', 'cdk', 'cdktf']);
const PLANNING_SUBCOMMANDS = new Set(['plan', 'preview', 'diff', 'synth', 'validate', 'show']);
/** Programs whose `-n` means "show what would be done". */
const DASH_N_PREVIEWS = new Set(['git', 'rsync', 'make', 'ansible-playbook']);

/**
 * Principle 8 (the benign side): a dry run, plan or preview removes destructiveness, and a
 * task that names every target of a destructive verb licenses that verb on those targets. Both
 * cap what the program's rule finds destructive; exfiltration is never capped.
 */
function refinedByIntent(scope: CommandScope): CommandScope {
  const { program, args } = scope.command;
  const dryRun =
    args.some((arg) => DRY_RUN_FLAGS.test(arg) && (arg !== '-n' || DASH_N_PREVIEWS.has(program))) ||
    (PLANNING_TOOLS.has(program) && PLANNING_SUBCOMMANDS.has(args.find((arg) => !arg.startsWith('-')) ?? ''));
  if (dryRun) return capped(scope, RISK.low, 'intent.dry-run', 0.85);
  if (taskNamesEveryOperand(scope.task, args, (operand) => scope.path(operand).scope))
    return capped(scope, RISK.low, 'intent.task-names-target', 0.85);
  return scope;
}

function capped(
  scope: CommandScope,
  cap: number,
  code: string,
  onTaskFloor: number | undefined,
): CommandScope {
  return {
    ...scope,
    add: (finding) => {
      if (finding.destructive === undefined && finding.deny === undefined) {
        scope.add(
          onTaskFloor === undefined || finding.onTask === undefined
            ? finding
            : { ...finding, onTask: Math.max(finding.onTask, onTaskFloor) },
        );
        return;
      }
      scope.add({
        ...finding,
        code: `${finding.code}[${code}]`,
        ...(finding.destructive === undefined ? {} : { destructive: Math.min(finding.destructive, cap) }),
        ...(finding.deny === undefined ? {} : { deny: Math.min(finding.deny, cap) }),
        ...(onTaskFloor === undefined || finding.onTask === undefined
          ? {}
          : { onTask: Math.max(finding.onTask, onTaskFloor) }),
      });
    },
  };
}
