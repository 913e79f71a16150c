import type { CommandRule } from '../shell-command.js';

/**
 * Issue 27, "understood or ask", for the development tools whose first word is a subcommand: the
 * subcommands that real projects run every day, per program (from each tool's own `help`). A word
 * outside the list is not understood, whatever the tool's rule makes of it: `dotnet nuget push`,
 * `cargo binstall`, `uv tool run`, `swift package-registry publish` and a subcommand added in the
 * tool's next release may publish, fetch code or change trust, so they are asked.
 *
 * A two-word entry (`tool restore`) admits that verb only with that second word. Tools whose
 * first word names the project's own scripts, targets or tasks (`make`, `npm run`, `yarn build`,
 * `gradle`, `mvn`) are not listed: their words are the project's.
 *
 * `valued` lists the global options that take a value before the subcommand (`poetry -C dir
 * install`), so that the value is not read as the subcommand.
 */
interface SubcommandVocabulary {
  readonly routine: readonly string[];
  readonly valued?: readonly string[];
  /**
   * For tools whose words are otherwise the project's own tasks (`mix`): only words of this shape
   * are the tool's, and checked; the rest are the project's.
   */
  readonly toolWords?: RegExp;
}

const PIP: SubcommandVocabulary = {
  routine: [
    'install',
    'uninstall',
    'list',
    'show',
    'freeze',
    'check',
    'download',
    'wheel',
    'hash',
    'cache',
    'config',
    'debug',
    'index',
    'inspect',
    'help',
    'search',
    'completion',
  ],
  valued: [
    '--proxy',
    '--log',
    '--cert',
    '--client-cert',
    '--timeout',
    '--retries',
    '--cache-dir',
    '--python',
  ],
};

const APT: SubcommandVocabulary = {
  routine: [
    'install',
    'reinstall',
    'remove',
    'purge',
    'autoremove',
    'update',
    'upgrade',
    'full-upgrade',
    'dist-upgrade',
    'list',
    'search',
    'show',
    'showsrc',
    'policy',
    'depends',
    'rdepends',
    'source',
    'download',
    'clean',
    'autoclean',
    'check',
    'build-dep',
    'satisfy',
    'madison',
  ],
  valued: ['-o', '-c', '-t', '--option', '--config-file', '--target-release'],
};

export const ROUTINE_SUBCOMMANDS: ReadonlyMap<string, SubcommandVocabulary> = new Map([
  [
    'cargo',
    {
      routine: [
        'build',
        'b',
        'check',
        'c',
        'clean',
        'doc',
        'd',
        'new',
        'init',
        'add',
        'remove',
        'rm',
        'run',
        'r',
        'test',
        't',
        'bench',
        'update',
        'search',
        'install',
        'uninstall',
        'fmt',
        'clippy',
        'tree',
        'metadata',
        'fetch',
        'vendor',
        'generate-lockfile',
        'locate-project',
        'pkgid',
        'login',
        'logout',
        'owner',
        'package',
        'publish',
        'yank',
        'verify-project',
        'version',
        'help',
        'report',
        'rustc',
        'rustdoc',
        'fix',
        'config',
        'info',
        // Plugins a project installs for its own checks; each runs the project's code or reads it.
        'nextest',
        'watch',
        'audit',
        'deny',
        'expand',
        'outdated',
        'llvm-cov',
        'tarpaulin',
        'make',
        'udeps',
        'machete',
        'insta',
        'upgrade',
        'sort',
        'hack',
        'semver-checks',
        'miri',
        'criterion',
        'fuzz',
        'mutants',
      ],
      valued: ['--config', '-Z', '--color', '-C'],
    },
  ],
  [
    'dotnet',
    {
      routine: [
        'build',
        'test',
        'run',
        'restore',
        'clean',
        'format',
        'watch',
        'new',
        'add',
        'remove',
        'list',
        'sln',
        'pack',
        'publish',
        'msbuild',
        'vstest',
        'help',
        'sdk',
        'package',
        'reference',
        'build-server',
        'ef',
        'tool restore',
        'tool list',
        'tool run',
        'tool search',
        'tool update',
        'workload list',
        'workload search',
        'workload restore',
        'nuget locals',
        'nuget why',
        'nuget verify',
        'user-secrets init',
        'user-secrets set',
        'user-secrets remove',
      ],
    },
  ],
  [
    'swift',
    {
      routine: [
        'build',
        'test',
        'run',
        'format',
        'help',
        'package resolve',
        'package update',
        'package init',
        'package describe',
        'package dump-package',
        'package show-dependencies',
        'package clean',
        'package reset',
        'package purge-cache',
        'package edit',
        'package unedit',
        'package compute-checksum',
        'package archive-source',
        'package add-dependency',
        'package add-target',
        'package add-product',
      ],
    },
  ],
  [
    'gem',
    {
      routine: [
        'install',
        'list',
        'search',
        'info',
        'env',
        'environment',
        'build',
        'uninstall',
        'update',
        'outdated',
        'contents',
        'which',
        'cleanup',
        'specification',
        'sources',
        'push',
        'yank',
        'owner',
        'help',
        'query',
        'dependency',
        'pristine',
        'check',
        'lock',
        'fetch',
        'unpack',
        'open',
        'rdoc',
      ],
    },
  ],
  [
    'bundle',
    {
      routine: [
        'install',
        'update',
        'exec',
        'add',
        'remove',
        'check',
        'list',
        'show',
        'outdated',
        'config',
        'lock',
        'info',
        'binstubs',
        'package',
        'cache',
        'clean',
        'doctor',
        'init',
        'open',
        'platform',
        'version',
        'gem',
        'help',
      ],
      valued: ['--gemfile'],
    },
  ],
  ['pip', PIP],
  ['pip3', PIP],
  [
    'poetry',
    {
      routine: [
        'install',
        'add',
        'remove',
        'update',
        'lock',
        'run',
        'shell',
        'show',
        'build',
        'check',
        'config',
        'env',
        'init',
        'new',
        'search',
        'version',
        'export',
        'source',
        'publish',
        'cache',
        'debug',
        'about',
        'help',
        'sync',
        'list',
        'self show',
      ],
      valued: ['-C', '--directory', '-P', '--project'],
    },
  ],
  [
    'uv',
    {
      routine: [
        'pip',
        'run',
        'sync',
        'lock',
        'add',
        'remove',
        'tree',
        'venv',
        'python',
        'build',
        'publish',
        'init',
        'export',
        'cache',
        'version',
        'help',
        'format',
        'tool list',
        'tool dir',
        'tool update-shell',
        'self version',
      ],
      valued: ['--directory', '--project', '--config-file', '--color', '--cache-dir'],
    },
  ],
  [
    'pipx',
    {
      routine: [
        'install',
        'uninstall',
        'uninstall-all',
        'list',
        'upgrade',
        'upgrade-all',
        'reinstall',
        'reinstall-all',
        'inject',
        'uninject',
        'ensurepath',
        'environment',
        'completions',
      ],
    },
  ],
  [
    'mix',
    {
      // Mix tasks are the project's and its dependencies' (`mix phx.server`, `mix ecto.migrate`);
      // the `hex.*` and `archive.*` tasks act on the package registry and the user's archives.
      routine: ['hex.info', 'hex.outdated', 'hex.audit', 'hex.search', 'hex.docs', 'hex.build', 'hex.config'],
      toolWords: /^(hex|archive)\./,
    },
  ],
  ['apt', APT],
  ['apt-get', APT],
  ['apt-cache', APT],
  [
    'brew',
    {
      routine: [
        'install',
        'reinstall',
        'uninstall',
        'remove',
        'rm',
        'list',
        'ls',
        'info',
        'search',
        'update',
        'upgrade',
        'doctor',
        'outdated',
        'cleanup',
        'deps',
        'uses',
        'leaves',
        'config',
        'desc',
        'pin',
        'unpin',
        'link',
        'unlink',
        'autoremove',
        'fetch',
        'untap',
        'services',
        'home',
      ],
    },
  ],
]);

/** The subcommand words of a command: the first operand after the global options, and the next. */
function subcommandWords(
  args: readonly string[],
  valued: readonly string[],
): [string, string | undefined] | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--') return undefined;
    if (arg.startsWith('-') || arg.startsWith('+')) {
      if (valued.includes(arg)) index += 1;
      continue;
    }
    const next = args.slice(index + 1).find((word) => !word.startsWith('-'));
    return [arg, next];
  }
  return undefined;
}

/**
 * The program's own rule, after its subcommand is checked against the routine list: an unknown
 * subcommand is recorded as not understood (asked), and the rule still judges what it knows.
 */
export function withRoutineSubcommands(program: string, rule: CommandRule): CommandRule {
  const vocabulary = ROUTINE_SUBCOMMANDS.get(program);
  if (vocabulary === undefined) return rule;
  const single = new Set(vocabulary.routine.filter((entry) => !entry.includes(' ')));
  const paired = new Set(vocabulary.routine.filter((entry) => entry.includes(' ')));
  const pairedVerbs = new Set([...paired].map((entry) => entry.split(' ')[0]!));
  return (scope) => {
    const words = subcommandWords(scope.command.args, vocabulary.valued ?? []);
    // A path in the subcommand's place is a file the tool runs (`swift scripts/gen.swift`), judged
    // by the rule as the project's own code.
    const toolWord =
      words !== undefined &&
      (vocabulary.toolWords !== undefined ? vocabulary.toolWords.test(words[0]) : !/[./]/.test(words[0]));
    if (words !== undefined && toolWord) {
      const [verb, next] = words;
      const known =
        single.has(verb) || (pairedVerbs.has(verb) && next !== undefined && paired.has(`${verb} ${next}`));
      if (!known)
        scope.add({
          code: `vocab.unknown-subcommand:${program} ${[verb, pairedVerbs.has(verb) ? next : undefined].filter(Boolean).join(' ').slice(0, 40)}`,
          uncertain: true,
          onTask: 0.6,
        });
    }
    rule(scope);
  };
}
