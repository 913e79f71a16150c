import { RISK } from './risk-scale.js';
import type { CommandScope } from './shell-command.js';

/**
 * Programs that run another command given as their remaining arguments. For each: the options
 * that take a value (so the value is not mistaken for the command) and how many positional
 * arguments precede the command (`timeout 5 cmd`, `chroot DIR cmd`).
 */
interface WrapperShape {
  optionsWithValue: ReadonlySet<string>;
  positionalBefore: number;
  /** Options after which the wrapper does not run a command (`command -v git`). */
  queryOptions?: ReadonlySet<string>;
  /** Options whose value is a shell command line the wrapper runs (`flock FILE -c 'cmd'`). */
  shellOptions?: ReadonlySet<string>;
}

const shape = (
  options: string[],
  positionalBefore = 0,
  queryOptions?: string[],
  shellOptions?: string[],
): WrapperShape => ({
  optionsWithValue: new Set(options),
  positionalBefore,
  queryOptions: queryOptions === undefined ? undefined : new Set(queryOptions),
  shellOptions: shellOptions === undefined ? undefined : new Set(shellOptions),
});

const WRAPPERS: ReadonlyMap<string, WrapperShape> = new Map([
  [
    'sudo',
    shape(['-u', '-g', '-h', '-p', '-C', '-r', '-t', '-U', '-D', '-R', '--user', '--group', '--prompt'], 0, [
      '-l',
      '-v',
      '-k',
      '-K',
      '-V',
    ]),
  ],
  ['doas', shape(['-u', '-C'])],
  ['env', shape(['-u', '--unset', '-C', '--chdir', '-S', '--split-string'])],
  ['command', shape([], 0, ['-v', '-V'])],
  ['builtin', shape([])],
  ['exec', shape(['-a'])],
  ['nohup', shape([])],
  ['timeout', shape(['-s', '--signal', '-k', '--kill-after'], 1)],
  ['nice', shape(['-n', '--adjustment'])],
  ['ionice', shape(['-c', '-n', '-p', '--class', '--classdata'])],
  ['time', shape(['-f', '--format', '-o', '--output'])],
  ['stdbuf', shape(['-i', '-o', '-e'])],
  ['setsid', shape([])],
  ['unbuffer', shape([])],
  ['caffeinate', shape(['-t', '-w'])],
  ['chroot', shape(['--userspec', '--groups'], 1)],
  ['flock', shape(['-w', '--timeout', '-E', '--conflict-exit-code'], 1, undefined, ['-c', '--command'])],
  ['sg', shape([], 1, undefined, ['-c'])],
  // Schedulers, resource and personality setters, debuggers and profilers: each runs the command
  // that follows its own options (and its one positional argument: a priority, a CPU mask, an
  // architecture, a time).
  ['chrt', shape([], 1)],
  ['taskset', shape([], 1)],
  ['numactl', shape(['-N', '-m', '-C', '-i', '-p', '--cpunodebind', '--membind', '--physcpubind'])],
  ['setarch', shape([], 1)],
  ['linux32', shape([])],
  ['linux64', shape([])],
  ['cpulimit', shape(['-l', '--limit', '-p', '--pid', '-e', '--exe'])],
  ['prlimit', shape(['-p', '--pid'])],
  ['unshare', shape(['-S', '--setuid', '-G', '--setgid', '--wd', '-R', '--root'])],
  ['faketime', shape(['-f'], 1)],
  ['rlwrap', shape(['-f', '-H', '-S', '-P', '-l'])],
  ['valgrind', shape([])],
  ['catchsegv', shape([])],
  ['chpst', shape(['-u', '-U', '-e', '-/', '-n', '-l', '-L', '-m', '-d', '-o', '-p', '-f', '-c'])],
  ['strace', shape(['-e', '-o', '-p', '-s', '-u'])],
  ['ltrace', shape(['-e', '-o', '-p', '-s', '-u'])],
  ['torsocks', shape([])],
  ['proxychains', shape(['-f'])],
  ['proxychains4', shape(['-f'])],
  ['firejail', shape([])],
  ['runuser', shape(['-u', '-g', '-l'])],
  ['watch', shape(['-n', '--interval', '-d', '--differences'])],
  ['dbus-launch', shape([])],
  ['xvfb-run', shape(['-a', '-s', '-n'])],
]);

/**
 * Peels one wrapper and judges the wrapped command. Returns false when the program is not a
 * wrapper. `env`'s own `VAR=value` arguments and `-S string` are handled; `env` alone prints
 * the environment, which is a secret source.
 */
export function unwrapCommand(scope: CommandScope): boolean {
  const { program, args } = scope.command;
  const wrapper = WRAPPERS.get(program);
  if (wrapper === undefined) return false;
  let index = 0;
  let positional = wrapper.positionalBefore;
  while (index < args.length) {
    const arg = args[index]!;
    if (arg === '--') {
      index += 1;
      break;
    }
    if (wrapper.queryOptions?.has(arg)) {
      scope.add({ code: `shell.${program}.query` });
      return true;
    }
    if (program === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) {
      index += 1;
      continue;
    }
    if (program === 'env' && (arg === '-S' || arg === '--split-string')) {
      scope.runShell(args.slice(index + 1).join(' '), 'env-S');
      return true;
    }
    if (wrapper.shellOptions?.has(arg)) {
      if (index + 1 < args.length) scope.runShell(args[index + 1]!, `${program}${arg}`);
      return true;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      index += wrapper.optionsWithValue.has(arg) ? 2 : 1;
      continue;
    }
    if (positional > 0) {
      positional -= 1;
      index += 1;
      continue;
    }
    break;
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
