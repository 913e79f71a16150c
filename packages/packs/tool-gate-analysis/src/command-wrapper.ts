import { RISK } from './risk-scale.js';
import { parseArguments } from './rules/option-parse.js';
import type { CommandScope } from './shell-command.js';
import { type OptionTable, options } from './vocabulary/option-vocabulary.js';

/**
 * Programs that run another command given as their remaining arguments. For each: its option
 * specification (`rules/option-parse.ts`: the options that take a value, spelled `-u=`, so the
 * value is not mistaken for the command) and how many positional arguments precede the command
 * (`timeout 5 cmd`, `chroot DIR cmd`). The specifications are written from each program's
 * `--help` or manual.
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
  spec: string,
  positionalBefore = 0,
  queryOptions?: string[],
  shellOptions?: string[],
): WrapperShape => ({
  options: options(spec),
  positionalBefore,
  queryOptions: queryOptions === undefined ? undefined : new Set(queryOptions),
  shellOptions: shellOptions === undefined ? undefined : new Set(shellOptions),
});

const WRAPPERS: ReadonlyMap<string, WrapperShape> = new Map([
  // `-k` is not a query: with a command, sudo drops its cached credentials and runs the command.
  [
    'sudo',
    shape(
      '-u= -g= -h= -p= -C= -r= -t= -T= -U= -D= -R= --user= --group= --host= --prompt= --close-from= ' +
        '--role= --type= --command-timeout= --other-user= --chdir= --chroot=',
      0,
      ['-l', '--list', '-v', '--validate', '-K', '--remove-timestamp', '-V', '--version'],
    ),
  ],
  ['doas', shape('-u= -C=')],
  ['env', shape('-u= --unset= -C= --chdir= -S= --split-string=')],
  ['command', shape('', 0, ['-v', '-V'])],
  ['builtin', shape('')],
  ['exec', shape('-a=')],
  ['nohup', shape('')],
  ['timeout', shape('-s= --signal= -k= --kill-after=', 1)],
  ['nice', shape('-n= --adjustment=')],
  ['ionice', shape('-c= -n= -p= -P= -u= --class= --classdata= --pid= --pgid= --uid=')],
  ['time', shape('-f= --format= -o= --output=')],
  ['stdbuf', shape('-i= -o= -e= --input= --output= --error=')],
  ['setsid', shape('')],
  ['unbuffer', shape('')],
  ['caffeinate', shape('-t= -w=')],
  ['chroot', shape('--userspec= --groups=', 1)],
  [
    'flock',
    shape('-w= --timeout= -E= --conflict-exit-code= -c= --command=', 1, undefined, ['-c', '--command']),
  ],
  ['sg', shape('-c=', 1, undefined, ['-c'])],
  // Schedulers, resource and personality setters, debuggers and profilers: each runs the command
  // that follows its own options (and its one positional argument: a priority, a CPU mask, an
  // architecture, a time).
  ['chrt', shape('', 1)],
  ['taskset', shape('', 1)],
  [
    'numactl',
    shape('-N= -m= -C= -i= -p= --cpunodebind= --membind= --physcpubind= --interleave= --preferred='),
  ],
  ['setarch', shape('', 1)],
  ['linux32', shape('')],
  ['linux64', shape('')],
  ['cpulimit', shape('-l= --limit= -p= --pid= -e= --exe=')],
  ['prlimit', shape('-p= --pid= -o= --output=')],
  ['unshare', shape('-S= --setuid= -G= --setgid= -w= --wd= -R= --root= --map-user= --map-group=')],
  ['faketime', shape('-f=', 1)],
  ['rlwrap', shape('-f= -H= -S= -P= -l=')],
  ['valgrind', shape('')],
  ['catchsegv', shape('')],
  ['chpst', shape('-u= -U= -e= -/= -n= -l= -L= -m= -d= -o= -p= -f= -c=')],
  ['strace', shape('-e= -o= -p= -s= -u=')],
  ['ltrace', shape('-e= -o= -p= -s= -u=')],
  ['torsocks', shape('')],
  ['proxychains', shape('-f=')],
  ['proxychains4', shape('-f=')],
  ['firejail', shape('')],
  ['runuser', shape('-u= -g= -G= --user= --group= --supp-group=')],
  // `-d` (`--differences[=permanent]`) takes no separate value: `watch -d 'cmd'` runs `cmd`.
  ['watch', shape('-n= --interval= -q= --equexit=')],
  ['dbus-launch', shape('')],
  ['xvfb-run', shape('-a -s= -n= -e= -f= -p= --server-args= --server-num= --error-file= --auth-file=')],
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
