import { RISK } from './risk-scale.js';
import { parseArguments } from './rules/option-parse.js';
import type { CommandScope } from './shell-command.js';
import type { OptionTable } from './vocabulary/option-vocabulary.js';
import { OPTION_SPECS } from './vocabulary/program-options.js';

/**
 * Programs that run another command given as their remaining arguments. For each: its option
 * specification (`OPTION_SPECS`, read by `rules/option-parse.ts`: the options that take a value,
 * spelled `-u=`, so the value is not mistaken for the command) and how many positional arguments
 * precede the command (`timeout 5 cmd`, `chroot DIR cmd`).
 */
interface WrapperShape {
  options: OptionTable;
  positionalBefore: number;
  /** Options after which the wrapper does not run a command (`command -v git`). */
  queryOptions?: ReadonlySet<string>;
  /** Options whose value is a shell command line the wrapper runs (`flock FILE -c 'cmd'`). */
  shellOptions?: ReadonlySet<string>;
}

const shape = (
  program: WrapperName,
  positionalBefore = 0,
  queryOptions?: string[],
  shellOptions?: string[],
): [WrapperName, WrapperShape] => [
  program,
  {
    options: OPTION_SPECS[program],
    positionalBefore,
    queryOptions: queryOptions === undefined ? undefined : new Set(queryOptions),
    shellOptions: shellOptions === undefined ? undefined : new Set(shellOptions),
  },
];

/** A wrapper's name, which is also its key in `OPTION_SPECS`. */
type WrapperName = keyof typeof OPTION_SPECS;

const WRAPPERS: ReadonlyMap<string, WrapperShape> = new Map([
  // `-k` is not a query: with a command, sudo drops its cached credentials and runs the command.
  shape('sudo', 0, ['-l', '--list', '-v', '--validate', '-K', '--remove-timestamp', '-V', '--version']),
  shape('doas'),
  shape('env'),
  shape('command', 0, ['-v', '-V']),
  shape('builtin'),
  shape('exec'),
  shape('nohup'),
  shape('timeout', 1),
  shape('nice'),
  shape('ionice'),
  shape('time'),
  shape('stdbuf'),
  shape('setsid'),
  shape('unbuffer'),
  shape('caffeinate'),
  shape('chroot', 1),
  shape('flock', 1, undefined, ['-c', '--command']),
  shape('sg', 1, undefined, ['-c']),
  // Schedulers, resource and personality setters, debuggers and profilers: each runs the command
  // that follows its own options (and its one positional argument: a priority, a CPU mask, an
  // architecture, a time).
  shape('chrt', 1),
  shape('taskset', 1),
  shape('numactl'),
  shape('setarch', 1),
  shape('linux32'),
  shape('linux64'),
  shape('cpulimit'),
  shape('prlimit'),
  shape('unshare'),
  shape('faketime', 1),
  shape('rlwrap'),
  shape('valgrind'),
  shape('catchsegv'),
  shape('chpst'),
  shape('strace'),
  shape('ltrace'),
  shape('torsocks'),
  shape('proxychains'),
  shape('proxychains4'),
  shape('firejail'),
  shape('runuser'),
  shape('watch'),
  shape('dbus-launch'),
  shape('xvfb-run'),
]);

/**
 * Peels one wrapper and judges the wrapped command. Returns false when the program is not a
 * wrapper. `env`'s own `VAR=value` arguments and `-S string` are handled; `env` alone prints
 * the environment, which is a secret source.
 *
 * The wrapper's options are read with the one option parser, the first positional ending them
 * (as every wrapper's `getopt` reads them), so the wrapped command's options stay its own. After a
 * positional the wrapper takes before the command (`timeout 5`, `flock FILE`), options are read
 * again: `flock FILE -c 'cmd'` and `setarch ARCH -R cmd` take them there (for `timeout 5 -s KILL`
 * this over-reads: timeout would try to run `-s`, a command that cannot exist).
 */
export function unwrapCommand(scope: CommandScope): boolean {
  const { program, args } = scope.command;
  const wrapper = WRAPPERS.get(program);
  if (wrapper === undefined) return false;
  let index = 0;
  let positional = wrapper.positionalBefore;
  reading: while (index < args.length) {
    const parsed = parseArguments(args.slice(index), wrapper.options, {
      // `nice -5 cmd` is nice's old spelling of an adjustment, not a command named `-5`.
      negativeNumbers: 'option',
      firstPositionalEndsOptions: true,
    });
    for (const token of parsed.tokens) {
      const at = index + token.index;
      if (token.kind === 'option') {
        if (wrapper.queryOptions?.has(token.name)) {
          scope.add({ code: `shell.${program}.query` });
          return true;
        }
        // `env -S 'cmd args' more` splits its string and runs it with the arguments after it.
        if (program === 'env' && (token.name === '-S' || token.name === '--split-string')) {
          const after = args.slice(at + (token.separateValue ? 2 : 1));
          scope.runShell([token.value ?? '', ...after].join(' ').trim(), 'env-S');
          return true;
        }
        if (wrapper.shellOptions?.has(token.name)) {
          if (token.value !== undefined) scope.runShell(token.value, `${program}${token.name}`);
          return true;
        }
        continue;
      }
      // Every positional of this reading follows the first one or `--`: no option comes after it,
      // except that a positional the wrapper takes before the command may be followed by more of
      // its options (read again), unless `--` was given.
      const afterEnd = parsed.endOfOptions !== undefined;
      // `env - cmd`: "a mere - implies -i" (env --help); then its `NAME=VALUE` settings.
      if (
        program === 'env' &&
        ((token.value === '-' && !afterEnd) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(token.value))
      )
        continue;
      if (positional > 0) {
        positional -= 1;
        if (afterEnd) continue;
        index = at + 1;
        continue reading;
      }
      index = at;
      break reading;
    }
    index = args.length;
  }
  const wrapped = args.slice(index);
  if (wrapped.length === 0) {
    if (program === 'env') {
      scope.add({ code: 'secret.environment-dump:env', exfil: RISK.low });
      scope.secretSource('env');
    }
    return true;
  }
  if (program === 'watch' && wrapped.length === 1) {
    scope.runShell(wrapped[0]!, 'watch');
    return true;
  }
  scope.runArgv(wrapped, program);
  return true;
}
