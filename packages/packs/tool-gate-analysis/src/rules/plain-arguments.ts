import { SCRIPT_RUNNERS } from '../argument-roles.js';
import { SYSTEM_PROGRAM_NAMES } from '../program-catalog.js';
import { isCredentialPath } from '../secret-source.js';
import type { CommandScope } from '../shell-command.js';
import { classifyVerb } from './cli-verb.js';

/** A plain word, or a relative path whose first segment is a plain word (so not a host name). */
const PLAIN_ARGUMENT = /^[A-Za-z][\w-]*(\/[\w-][\w.-]*)*\/?$/;
/** A program name as installed commands are spelt; a capitalised `GIT` or `Rm` is not judged here. */
const PLAIN_PROGRAM = /^[a-z][a-z0-9_-]*$/;

/**
 * An unknown program judged by the roles of its arguments (issue 14, "How to build it": per-program
 * knowledge only refines what the arguments say). When every argument is a plain word or a relative
 * path inside the workspace, nothing the program was given names a host or a place outside the
 * workspace. So the call is allowed when, besides, no argument or folder on its path is named like
 * a credential store (`id_rsa`, `secrets/…`), none is a file an earlier segment of the call wrote
 * (a payload written then run, principle 2), nothing reaches the program another way (standard
 * input, an input redirect, an expansion, its environment), and neither its name nor any argument
 * is a verb that changes or removes something.
 * Anything else stays with the verb judgement, which asks. Findings from the argument roles (a
 * credential file named in the workspace, for example) still count.
 *
 * @returns whether the call was judged here.
 */
export function judgeByPlainArguments(scope: CommandScope): boolean {
  const { program, args, dynamicArgs, input, redirects, environment } = scope.command;
  // No argument, nothing to judge the call by.
  if (args.length === 0 || !PLAIN_PROGRAM.test(program)) return false;
  if (input.kind !== 'none' || (environment?.length ?? 0) > 0 || dynamicArgs.some(Boolean)) return false;
  if (redirects.some((redirect) => redirect.operator.includes('<'))) return false;
  for (const arg of args) {
    if (!PLAIN_ARGUMENT.test(arg)) return false;
    const path = scope.path(arg);
    if (path.scope !== 'workspace' || scope.written(path.normalised)) return false;
    const segments = arg.split('/');
    if (segments.some((_, end) => isCredentialPath(segments.slice(0, end + 1).join('/')))) return false;
  }
  if (![program, ...args].every(readsOrSaysNothing)) return false;
  // Principle 2: an unknown program handed a program's name may run it (`rlwrap sh`,
  // `setarch x86_64 bash`): the argument is code, not data.
  if (args.some((arg) => SCRIPT_RUNNERS.has(arg) || SYSTEM_PROGRAM_NAMES.has(arg))) return false;
  // A name that begins with a verb of change (`deluser`, `rmmod`, `killall5`, `wipefs`) says what
  // the program does, as a verb among its arguments would.
  if (DESTRUCTIVE_PREFIXES.some((prefix) => program.startsWith(prefix) && program !== prefix)) return false;
  scope.add({ code: `cli.${program}.plain-arguments`, onTask: 0.85 });
  return true;
}

/** Verbs of removal or change that begin program names (`del` of deluser, `rm` of rmmod). */
const DESTRUCTIVE_PREFIXES = [
  'del',
  'rm',
  'kill',
  'wipe',
  'purge',
  'shred',
  'erase',
  'nuke',
  'drop',
  'flush',
  'format',
  'remove',
  'uninstall',
  'unlink',
  'reset',
  'destroy',
  'truncate',
  'zap',
  'clear',
  'prune',
  'mod',
  'ins',
  'set',
  'chg',
  'chsh',
  'chfn',
  'passwd',
  'user',
  'group',
  'sys',
];

/** Neither the word nor any part of a compound (`db-drop`, `reset_all`) names a change. */
function readsOrSaysNothing(word: string): boolean {
  return [word, ...word.split(/[-_./]/)].every((part) => {
    const kind = classifyVerb(part);
    return kind === undefined || kind === 'read';
  });
}
