import { addressesOutsideHost } from '../loopback-host.js';
import { NETWORK_FETCHERS } from '../program-catalog.js';
import { RISK } from '../risk-scale.js';
import { isCredentialPath } from '../secret-source.js';
import type { CommandRule, CommandScope, SimpleCommand } from '../shell-command.js';
import { OPTION_SPECS } from '../vocabulary/program-options.js';
import { DEVELOPMENT_RULES, judgeMigrationTool, nodePackageManager } from './development-rules.js';
import { isGeneratedName } from './file-system-rules.js';
import { judgeInterpreterCode } from './interpreter-code.js';
import { parseArguments } from './option-parse.js';

/**
 * `sh -c`, `bash -lc`, scripts on stdin (heredocs, pipes), `eval`, `source`. The shell's options
 * are read with the one option parser (`OPTION_SPECS.shell`, fish's own): the first positional
 * ends them (bash(1): the script and its arguments follow); with `-c` the command string is the
 * first positional (`bash -c -e 'cmd'`, `bash -o errexit -c 'cmd'`); with `-s`, or with no
 * positional, the program comes from standard input and the positionals are its arguments
 * (`curl … | bash -s stable`); a lone `-` is `--`.
 */
const shell: CommandRule = (scope) => {
  const { args, program } = scope.command;
  // `+o name`, `+x`: the same options, turned off.
  const spelled = args.map((arg) => (/^\+[A-Za-z]/.test(arg) ? `-${arg.slice(1)}` : arg));
  const parsed = parseArguments(spelled, program === 'fish' ? OPTION_SPECS.fish : OPTION_SPECS.shell, {
    firstPositionalEndsOptions: true,
  });
  const given = (...names: string[]) => parsed.options.find((option) => names.includes(option.name));
  if (given('--version', '--help') !== undefined) return;
  const positionals =
    parsed.positionals[0] === '-' && parsed.endOfOptions === undefined
      ? parsed.positionals.slice(1)
      : parsed.positionals;
  const command = given('-c', '--command');
  if (command !== undefined) {
    const source = command.value ?? positionals[0];
    if (source === undefined) scope.add({ code: `shell.${program}.missing-command`, implausible: true });
    else scope.runShell(source, `${program}-c`);
    return;
  }
  const script = positionals[0];
  if (script !== undefined && given('-s') === undefined) {
    // `bash script.sh`: running a project script is development work.
    scope.add({ code: `shell.${program}.script:${script}`, onTask: 0.85 });
    return;
  }
  judgeStdinProgram(scope, (source) => scope.runShell(source, `${program}-stdin`), program);
};

/** What a shell or interpreter runs when its program comes from standard input. */
function judgeStdinProgram(scope: CommandScope, run: (source: string) => void, program: string): void {
  const input = scope.command.input;
  if (input.kind === 'document') {
    run(input.body);
    return;
  }
  if (input.kind === 'none') {
    scope.add({ code: `shell.${program}.interactive`, uncertain: true });
    return;
  }
  const payload = pipedPayload(input.from);
  if (payload.kind === 'literal') run(payload.text);
  else if (payload.kind === 'remote')
    scope.add({
      code: `shell.remote-script:${payload.from}`,
      destructive: RISK.ask,
      uncertain: true,
      onTask: 0.1,
    });
  else
    scope.add({ code: `shell.piped-script-unknown:${payload.from}`, uncertain: true, destructive: RISK.ask });
}

type Payload =
  | { kind: 'literal'; text: string }
  | { kind: 'remote'; from: string }
  | { kind: 'unknown'; from: string };

/** Follows `echo …`, `printf …`, `base64 -d`, `xxd -r -p`, `rev` back to a literal when there is one. */
function pipedPayload(from: SimpleCommand): Payload {
  const { program, args } = from;
  if (program === 'echo' || program === 'printf') {
    const text = args.filter((arg, index) => !(index === 0 && /^-[neE]+$/.test(arg))).join(' ');
    return { kind: 'literal', text: program === 'printf' ? text.replace(/\\n/g, '\n') : text };
  }
  if (program === 'cat' && args.length === 0 && from.input.kind === 'document')
    return { kind: 'literal', text: from.input.body };
  if (NETWORK_FETCHERS.has(program)) return { kind: 'remote', from: program };
  const decoding =
    (program === 'base64' && args.some((arg) => /^(-d|--decode|-D)$/.test(arg))) ||
    (program === 'xxd' && args.includes('-r')) ||
    program === 'rev';
  if (decoding) {
    const inner =
      from.input.kind === 'pipe'
        ? pipedPayload(from.input.from)
        : from.input.kind === 'document'
          ? { kind: 'literal' as const, text: from.input.body }
          : undefined;
    if (inner?.kind === 'literal') {
      const decoded = decode(program, inner.text);
      if (decoded !== undefined) return { kind: 'literal', text: decoded };
    }
    return { kind: 'unknown', from: `${program}-decoded` };
  }
  return { kind: 'unknown', from: program };
}

function decode(program: string, text: string): string | undefined {
  const trimmed = text.trim();
  if (program === 'base64') {
    if (!/^[A-Za-z0-9+/=\s]+$/.test(trimmed)) return undefined;
    return Buffer.from(trimmed, 'base64').toString('utf8');
  }
  if (program === 'xxd') {
    if (!/^[0-9a-fA-F\s]+$/.test(trimmed)) return undefined;
    return Buffer.from(trimmed.replace(/\s/g, ''), 'hex').toString('utf8');
  }
  return [...trimmed].reverse().join('');
}

const INTERPRETER_CODE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  python: ['-c'],
  node: ['-e', '--eval', '-p', '--print'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  deno: ['eval'],
  bun: ['-e', '--eval'],
  lua: ['-e'],
  osascript: ['-e'],
};

const INTERPRETER_LANGUAGE = (program: string): string | undefined => {
  if (/^python(\d+(\.\d+)?)?$|^pypy3?$/.test(program)) return 'python';
  if (program === 'nodejs') return 'node';
  if (/^(node|perl|ruby|php|deno|bun|lua|osascript)$/.test(program)) return program;
  return undefined;
};

/** Python modules that expose or fetch rather than compute. */
const PYTHON_MODULES: Readonly<Record<string, (scope: CommandScope, rest: string[]) => void>> = {
  // Principle 6: serving files is judged by what is served and to whom. The module binds every
  // interface unless told otherwise; a workspace directory on loopback is a local preview.
  'http.server': (scope, rest) => {
    const option = (names: string[]) => {
      const index = rest.findIndex((arg) => names.includes(arg));
      return index >= 0 ? rest[index + 1] : undefined;
    };
    const bind = option(['--bind', '-b']) ?? '0.0.0.0';
    const served = scope.path(option(['--directory', '-d']) ?? '.');
    const loopback = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/.test(bind);
    const inWorkspace =
      served.scope === 'workspace' || served.scope === 'workspace-all' || served.scope === 'temp';
    if (!inWorkspace) {
      scope.networkSink('http.server');
      scope.add({ code: `net.serves-directory:${served.normalised}`, exfil: RISK.denyHigh, onTask: 0.1 });
    } else if (!loopback) {
      scope.networkSink('http.server');
      scope.add({ code: 'net.serves-directory:http.server', exfil: RISK.ask, onTask: 0.4 });
    } else scope.add({ code: 'net.serves-directory-locally:http.server', onTask: 0.85 });
  },
  SimpleHTTPServer: (scope) =>
    scope.add({ code: 'net.serves-directory:SimpleHTTPServer', exfil: RISK.ask, onTask: 0.4 }),
  pip: (scope, rest) => scope.runArgv(['pip', ...rest], 'python-m'),
  venv: () => {},
  pytest: () => {},
  unittest: () => {},
};

const interpreter: CommandRule = (scope) => {
  const { program, args } = scope.command;
  const language = INTERPRETER_LANGUAGE(program) ?? program;
  const codeFlags =
    (Object.hasOwn(INTERPRETER_CODE_FLAGS, language) && INTERPRETER_CODE_FLAGS[language]) || [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    const bundled = /^-[A-Za-z]*[ceEr]$/.test(arg) && codeFlags.includes(`-${arg.slice(-1)}`);
    if (codeFlags.includes(arg) || bundled) {
      const code = args[index + 1];
      if (code === undefined) scope.add({ code: `code.${language}.missing`, implausible: true });
      else judgeInterpreterCode(scope, code, language);
      return;
    }
    if (language === 'python' && arg === '-m') {
      const module = args[index + 1] ?? '';
      // The module name is the agent's: only the table's own entries are judges.
      const judge = Object.hasOwn(PYTHON_MODULES, module) ? PYTHON_MODULES[module] : undefined;
      if (judge !== undefined) judge(scope, args.slice(index + 2));
      // A module that is also a development program (`twine`, `black`) runs that program's
      // command line: `python -m twine upload` publishes as `twine upload` does.
      else if (DEVELOPMENT_RULES.has(module)) scope.runArgv([module, ...args.slice(index + 2)], 'python-m');
      else scope.add({ code: `code.python.module:${module}`, onTask: 0.85 });
      return;
    }
    if (arg === '--version' || arg === '-V' || arg === '--help' || arg === '-v') return;
    if (arg === '-') break;
    if (arg.startsWith('-')) continue;
    if (language === 'deno' || language === 'bun') {
      if (arg === 'eval' && args[index + 1] !== undefined) {
        judgeInterpreterCode(scope, args[index + 1]!, language);
        return;
      }
      // Bun is also a package manager and a package runner: `bun x pkg` is `bunx pkg`, and `bun
      // add pkg` installs from the network as `npm install pkg` does (issue 27: the same act is
      // judged the same whichever program spells it).
      if (language === 'bun' && arg === 'x') {
        scope.runArgv(['bunx', ...args.slice(index + 1)], 'bun-x');
        return;
      }
      if (language === 'bun' && BUN_PACKAGE_VERBS.has(arg)) {
        nodePackageManager({ ...scope, command: { ...scope.command, args: args.slice(index) } });
        return;
      }
      if (language === 'deno' && !/[./:]/.test(arg)) {
        judgeDenoSubcommand(scope, arg, args.slice(index + 1));
        return;
      }
    }
    // A script file: project code, the normal business of a coding agent. Framework entry
    // points with migration commands (`manage.py flush`, `artisan migrate:fresh`) are judged.
    const script = arg.replace(/^.*\//, '');
    if (script === 'manage.py' || script === 'artisan') {
      judgeMigrationTool(scope, script, args.slice(index + 1));
      return;
    }
    scope.add({ code: `code.${language}.script:${arg}`, onTask: 0.85 });
    return;
  }
  judgeStdinProgram(scope, (code) => judgeInterpreterCode(scope, code, language), language);
};

/** Bun's package-manager subcommands (`bun add`, `bun pm trust`): judged as npm's are. */
const BUN_PACKAGE_VERBS = new Set([
  'install',
  'i',
  'add',
  'a',
  'remove',
  'rm',
  'update',
  'outdated',
  'link',
  'unlink',
  'pm',
  'publish',
  'audit',
  'patch',
  'why',
  'info',
]);

/** Deno's subcommands (`deno help`) that work on the project's own code. */
const DENO_ROUTINE = new Set([
  'run',
  'serve',
  'test',
  'bench',
  'fmt',
  'lint',
  'check',
  'compile',
  'task',
  'doc',
  'info',
  'cache',
  'coverage',
  'types',
  'completions',
  'init',
  'add',
  'remove',
  'outdated',
  'clean',
  'help',
  'repl',
  'lsp',
  'jupyter',
  'uninstall',
  'publish',
]);

/**
 * A deno subcommand: the project's own work is the script rule's (`publish` is judged with every
 * publisher's, in the argument roles); `install`
 * with `-g` or a remote specifier installs a program for the whole user from the network; another
 * word is not understood (issue 27).
 */
function judgeDenoSubcommand(scope: CommandScope, verb: string, rest: readonly string[]): void {
  if (verb === 'install' || verb === 'i') {
    const global = rest.some((arg) => arg === '-g' || arg === '--global');
    const remote = rest.find((arg) => /^(https?:|npm:|jsr:)/.test(arg));
    if (global || remote !== undefined)
      scope.add({ code: 'pkg.deno.global-install', destructive: RISK.ask, onTask: 0.3 });
    else scope.add({ code: 'dev.deno.install', onTask: 0.9 });
    return;
  }
  if (!DENO_ROUTINE.has(verb))
    scope.add({ code: `vocab.unknown-subcommand:deno ${verb.slice(0, 40)}`, uncertain: true, onTask: 0.6 });
  scope.add({ code: `code.deno.script:${verb}`, onTask: 0.85 });
}

/** Requests in flight at once to one outside service before they are a flood of it. */
const PARALLEL_REQUESTS = 16;

/**
 * xargs runs the command after its options (the first positional; GNU xargs's getopt stops there)
 * with the input's items; `-I STR`, `--replace[=STR]` and `-i[STR]` say where each item goes.
 */
const xargs: CommandRule = (scope) => {
  const args = scope.command.args;
  const parsed = parseArguments(args, OPTION_SPECS.xargs, {
    firstPositionalEndsOptions: true,
    negativeNumbers: 'option',
  });
  // The replace-string of -I / --replace / -i: where each input item goes in the command.
  let placeholder: string | undefined;
  for (const option of parsed.options) {
    if (option.name === '-I') placeholder = option.value;
    else if (option.name === '--replace') placeholder = option.value ?? '{}';
    else if (option.name === '-i') {
      // `-i` takes its string only attached: the rest of its word (`-i{}`, `-0i%`).
      const word = args[option.index]!;
      const rest = word.slice(word.indexOf('i') + 1);
      placeholder = rest === '' ? '{}' : rest;
    }
  }
  const start = parsed.tokens.find((token) => token.kind === 'positional')?.index ?? args.length;
  const wrapped = args.slice(start);
  // Exhaustion of someone else's service (issue 27): `-P N` runs N copies at once, `-P 0` as many as
  // the input has items; with a request to another party's host in the command that is a flood.
  const procs = parsed.options.find((option) => option.name === '-P' || option.name === '--max-procs')?.value;
  if (
    procs !== undefined &&
    /^\d+$/.test(procs) &&
    (Number(procs) === 0 || Number(procs) >= PARALLEL_REQUESTS) &&
    addressesOutsideHost(wrapped.join(' '))
  )
    scope.add({ code: `proc.request-flood:xargs -P ${procs}`, destructive: RISK.askHigh, onTask: 0.2 });
  scope.runArgv(wrapped.length === 0 ? ['echo'] : wrapped, 'xargs', placeholder || undefined);
};

const FIND_FILTERS =
  /^-(name|iname|path|ipath|regex|iregex|type|mtime|mmin|atime|amin|ctime|cmin|newer|size|user|group|perm|empty|wholename|iwholename|maxdepth)$/;

/** Programs that, given each file find matches, remove or destroy it. */
const FIND_EXEC_DELETERS = new Set(['rm', 'unlink', 'shred', 'truncate', 'srm', 'wipe']);

const find: CommandRule = (scope) => {
  const args = scope.command.args;
  const firstExpression = args.findIndex(
    (arg) => arg.startsWith('-') || arg === '(' || arg === '!' || arg === '\\(',
  );
  const roots = (firstExpression < 0 ? args : args.slice(0, firstExpression)).filter(
    (arg) => !/^-[HLP]$/.test(arg),
  );
  const searchRoots = roots.length === 0 ? ['.'] : roots;
  const filtered = args.some((arg) => FIND_FILTERS.test(arg));
  // Principle 8: `-delete` limited by name to what builds regenerate (`-name '*.pyc'`) is cleanup.
  const names = args.flatMap((arg, index) => (/^-i?name$/.test(arg) ? [args[index + 1] ?? ''] : []));
  const generatedOnly = names.length > 0 && names.every((name) => isGeneratedName(name.replace(/^\*/, 'x')));
  // Principle 1: a search of the home or the system for key material by name (`find / -name
  // '*.pem'`, `find ~ -name id_rsa`) lists the user's credentials, and whatever reads its output
  // reads them. Its output is a secret source; the project's own certificates are not.
  for (const root of searchRoots) {
    const path = scope.path(root);
    if (path.scope === 'workspace' || path.scope === 'workspace-all' || path.scope === 'temp') continue;
    const base = path.normalised.replace(/\/+$/, '');
    const sought = names.find((name) => isCredentialPath(`${base}/${name.replace(/\*/g, 'x')}`));
    if (sought !== undefined) scope.secretSource(`find:${base}/${sought}`);
  }
  // Every file find matches under its roots goes, whether by `-delete` or `-exec rm {}`.
  const deletesMatches = (how: string) => {
    for (const root of searchRoots) {
      const path = scope.path(root);
      const inWorkspace = path.scope === 'workspace-all' || path.scope === 'workspace';
      if (inWorkspace && generatedOnly) {
        scope.add({ code: `shell.find.${how}-generated:${path.normalised}`, destructive: RISK.routine });
        continue;
      }
      const broad = path.scope === 'workspace-all' ? (filtered ? RISK.ask : RISK.denyHigh) : undefined;
      const severity =
        broad ??
        (path.scope === 'workspace' ? RISK.ask : path.scope === 'temp' ? RISK.routine : RISK.certain);
      scope.add({ code: `shell.find.${how}:${path.normalised}`, destructive: severity });
    }
  };
  // Privilege-escalation reconnaissance: a search beyond the workspace for programs that run with
  // their owner's rights (set-user-ID, set-group-ID) lists the footholds for taking those rights.
  const seeksRaisedRights = args.some(
    (arg, index) =>
      args[index - 1] === '-perm' &&
      /^[-/]?(?:[0-7]*[4-7][0-7]{3}|[ug]=s|[ug]\+s)$/.test(arg) &&
      /[46]\d{3}|[ug][=+]s/.test(arg),
  );
  if (
    seeksRaisedRights &&
    searchRoots.some((root) => !/^(workspace|workspace-all|temp)$/.test(scope.path(root).scope))
  )
    scope.add({ code: 'recon.raised-rights-programs', destructive: RISK.askHigh, onTask: 0.1 });
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '-delete') deletesMatches('delete');
    if (/^-(exec|execdir|ok|okdir)$/.test(arg)) {
      const end = args.findIndex(
        (candidate, position) =>
          position > index && (candidate === ';' || candidate === '+' || candidate === '\\;'),
      );
      const inner = args.slice(index + 1, end < 0 ? undefined : end);
      const deleter = inner[0]?.replace(/^.*\//, '');
      if (
        deleter !== undefined &&
        FIND_EXEC_DELETERS.has(deleter) &&
        inner.some((word) => word.includes('{}'))
      )
        deletesMatches(`exec-${deleter}`);
      for (const root of searchRoots) {
        const base = root.replace(/\/+$/, '') || '/';
        scope.runArgv(
          inner.map((word) => word.replace('{}', `${base}/{}`)),
          `find${arg}`,
        );
      }
      if (end > index) index = end;
    }
    if (arg === '-fprint' || arg === '-fprintf' || arg === '-fls') {
      scope.add({ code: 'shell.find.writes-file', destructive: RISK.routine });
    }
  }
};

/** GNU parallel: the command before `:::` runs once per input after it (`{}` is the input). */
const parallel: CommandRule = (scope) => {
  const args = scope.command.args;
  const separator = args.findIndex((arg) => arg === ':::' || arg === '::::');
  let index = 0;
  while (index < args.length && args[index]!.startsWith('-') && index !== separator) index += 1;
  const command = args.slice(index, separator < 0 ? undefined : separator);
  const inputs = separator < 0 ? [] : args.slice(separator + 1);
  if (command.length === 0) {
    scope.add({ code: 'shell.parallel.commands-from-input', uncertain: true, destructive: RISK.ask });
    return;
  }
  if (inputs.length === 0) {
    scope.add({ code: 'shell.parallel.inputs-unknown', uncertain: true });
    if (command.length === 1) scope.runShell(command[0]!, 'parallel');
    else scope.runArgv(command, 'parallel');
    return;
  }
  for (const input of inputs.slice(0, 16)) {
    if (command.length === 1) scope.runShell(command[0]!.replaceAll('{}', input), 'parallel');
    else if (command.some((word) => word.includes('{}')))
      scope.runArgv(
        command.map((word) => word.replaceAll('{}', input)),
        'parallel',
      );
    else scope.runArgv([...command, input], 'parallel');
  }
};

const SHELL_PROGRAMS = ['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'ash', 'mksh', 'csh', 'tcsh'];
const INTERPRETERS = [
  'python',
  'python2',
  'python3',
  'pypy',
  'pypy3',
  'node',
  'nodejs',
  'perl',
  'ruby',
  'php',
  'deno',
  'bun',
  'lua',
  'osascript',
];

/**
 * `source FILE` / `. FILE` run a file's shell in this shell. Sourcing the input (`. /dev/stdin
 * <<< "$(curl …)"`) runs whatever arrives there: a visible document is analysed as shell; input
 * the analysis cannot see (a pipe, a substitution) is not understood.
 */
const sourced: CommandRule = (scope) => {
  const file = scope.command.args[0] ?? '';
  if (/^(\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0|-)$/.test(file)) {
    const input = scope.command.input;
    if (input.kind === 'document' && !/\$\(|`/.test(input.body)) scope.runShell(input.body, 'source-input');
    else scope.add({ code: 'shell.source-input', uncertain: true, destructive: RISK.askHigh, onTask: 0.3 });
    return;
  }
  scope.add({ code: `shell.source:${file}`, onTask: 0.85 });
};

export const SHELL_RULES: ReadonlyMap<string, CommandRule> = new Map<string, CommandRule>([
  ...SHELL_PROGRAMS.map((name) => [name, shell] as const),
  ...INTERPRETERS.map((name) => [name, interpreter] as const),
  ['eval', (scope) => scope.runShell(scope.command.args.join(' '), 'eval')],
  // `trap ACTION SIGNAL…`: the action is shell the shell runs later (on EXIT, on a signal).
  [
    'trap',
    (scope) => {
      const [action, ...signals] = scope.command.args;
      if (action !== undefined && !action.startsWith('-') && signals.length > 0)
        scope.runShell(action, 'trap');
    },
  ],
  // Principle 2: an alias's value is code the shell runs when the name is used.
  [
    'alias',
    (scope) => {
      for (const arg of scope.command.args) {
        const equals = arg.indexOf('=');
        if (equals > 0) scope.runShell(arg.slice(equals + 1), 'alias');
      }
    },
  ],
  [
    'su',
    (scope) => {
      const index = scope.command.args.findIndex((arg) => arg === '-c' || arg === '--command');
      if (index >= 0 && scope.command.args[index + 1] !== undefined)
        scope.runShell(scope.command.args[index + 1]!, 'su-c');
      else scope.add({ code: 'shell.su.interactive', uncertain: true });
    },
  ],
  [
    'script',
    (scope) => {
      const index = scope.command.args.findIndex((arg) => arg === '-c' || arg === '--command');
      if (index >= 0 && scope.command.args[index + 1] !== undefined)
        scope.runShell(scope.command.args[index + 1]!, 'script-c');
    },
  ],
  ['source', sourced],
  ['.', sourced],
  ['xargs', xargs],
  ['find', find],
  ['parallel', parallel],
]);
