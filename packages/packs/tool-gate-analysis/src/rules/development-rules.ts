import { environmentChangeFinding } from '../environment-change.js';
import { RISK } from '../risk-scale.js';
import { isSecretVariableName } from '../secret-source.js';
import type { CommandRule, CommandScope } from '../shell-command.js';
import { taskMentions, taskNamesWord } from '../task-scope.js';
import { DRY_RUN_FLAGS } from './cli-verb.js';
import { goToolchain } from './go-toolchain.js';
import { withRoutineSubcommands } from './routine-subcommands.js';

/**
 * Build tools, test runners, package managers: the ordinary work of a coding agent. Running
 * the project's own scripts is on task; installing new packages from the network, publishing
 * and global installs are not unless the task says so; unpublishing and yanking destroy.
 */
const dev =
  (code: string): CommandRule =>
  (scope) =>
    scope.add({ code: `dev.${code}`, onTask: 0.9 });

/** Makefile names that mean "the command's input", not a file of the project. */
const STDIN_FILES = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/**
 * `make` runs the project's makefile. Given its makefile on its input (`make -f - <<EOF`, `-f
 * /dev/stdin <<< …`) the recipes are written in the call itself: each recipe line (a line that
 * starts with a tab) is shell and is analysed as such; input that cannot be seen is not understood.
 */
const make: CommandRule = (scope) => {
  const args = scope.command.args;
  const files = args.flatMap((arg, index) => {
    if (arg === '-f' || arg === '--file' || arg === '--makefile') return [args[index + 1] ?? ''];
    const inline = /^(?:-f|--file=|--makefile=)(.+)$/.exec(arg);
    return inline ? [inline[1]!] : [];
  });
  // tree-sitter-bash drops a lone `-` written right before a heredoc (`make -f - <<EOF` parses as
  // `make -f`), so a missing makefile name with a document on the input is that document.
  const fromInput = files.some(
    (file) => STDIN_FILES.test(file) || (file === '' && scope.command.input.kind === 'document'),
  );
  if (fromInput) {
    const input = scope.command.input;
    if (input.kind === 'document') {
      for (const line of input.body.split('\n'))
        if (line.startsWith('\t') && line.trim() !== '')
          scope.runShell(line.trim().replace(/^[@+-]+/, ''), 'make-recipe');
    } else scope.add({ code: 'dev.make.makefile-from-input', uncertain: true, destructive: RISK.askLow });
  }
  // A variable given on the command line overrides the makefile's: `SHELL=` or another
  // command-naming variable (`MAKESHELL`, `.SHELLFLAGS`) decides what runs every recipe.
  for (const arg of args) {
    const override = /^([A-Za-z_.][\w.]*)=(.*)$/s.exec(arg);
    if (override !== null && /^(SHELL|MAKESHELL|\.SHELLFLAGS)$/.test(override[1]!))
      scope.add({
        code: `code.make-override:${override[1]}`,
        uncertain: true,
        destructive: RISK.ask,
        onTask: 0.4,
      });
  }
  scope.add({ code: 'dev.make', onTask: 0.9 });
};

function installs(scope: CommandScope, manager: string, packages: string[], global: boolean): void {
  // Principle 8: a task that asks for installing, or names every package installed, licenses it.
  const named =
    packages.length > 0 &&
    packages.every((spec) => taskNamesWord(scope.task, spec.replace(/(?<=.)@[^@/]*$/, '')));
  const onTask = taskMentions(scope.task, 'install') || named ? 0.85 : 0.35;
  if (global)
    scope.add({
      code: `pkg.${manager}.global-install`,
      destructive: RISK.low,
      onTask: Math.min(onTask, 0.4),
    });
  else if (packages.length > 0)
    scope.add({ code: `pkg.${manager}.install-from-network:${packages.slice(0, 3).join(',')}`, onTask });
  else scope.add({ code: `pkg.${manager}.install-declared`, onTask: 0.9 });
}

/**
 * Principle 7: publishing sends the package to the world; it is on task only when the task asks
 * for it, and a dry run sends nothing.
 */
function publishes(scope: CommandScope, manager: string): void {
  if (scope.command.args.some((arg) => DRY_RUN_FLAGS.test(arg) && arg !== '-n')) {
    scope.add({ code: `pkg.${manager}.publish-dry-run`, onTask: 0.85 });
    return;
  }
  const asked = taskMentions(scope.task, 'publish');
  scope.networkSink(`${manager}-registry`);
  scope.add({
    code: `pkg.${manager}.publish`,
    exfil: asked ? RISK.low : RISK.askLow,
    onTask: asked ? 0.85 : 0.1,
  });
}

const SAFE_NODE_SCRIPTS = new Set([
  'test',
  't',
  'run',
  'run-script',
  'start',
  'build',
  'lint',
  'exec',
  'ls',
  'list',
  'outdated',
  'audit',
  'view',
  'info',
  'why',
  'explain',
  'init',
  'version',
  'help',
  'pack',
  'ci',
  'dedupe',
  'prune',
  'rebuild',
  'config',
  'doctor',
  'fund',
  'create',
  'dev',
  'format',
  'typecheck',
  'check',
  'tsc',
  'workspaces',
  'workspace',
  'dlx',
  'x',
  'why',
  'docs',
  'search',
  'bin',
  'root',
  'prefix',
  'query',
  'completion',
  'stop',
  'restart',
  'set-script',
  'pkg',
]);

export const nodePackageManager: CommandRule = (scope) => {
  const { program, args } = scope.command;
  const words = args.filter((arg) => !arg.startsWith('-'));
  const verb = words[0];
  const global = args.includes('-g') || args.includes('--global') || words[0] === 'global';
  if (verb === undefined) {
    if (program === 'yarn' || program === 'pnpm' || program === 'bun') installs(scope, program, [], false);
    return;
  }
  if (['install', 'i', 'add', 'isntall', 'in'].includes(verb) || (verb === 'global' && words[1] === 'add')) {
    const names = words.slice(verb === 'global' ? 2 : 1);
    installs(scope, program, names, global);
    return;
  }
  // `yarn npm publish` puts the verb second: publishing anywhere in the command path is publishing.
  if (verb === 'publish' || (words[1] === 'publish' && verb === 'npm')) return publishes(scope, program);
  if (verb === 'unpublish')
    return scope.add({ code: `pkg.${program}.unpublish`, destructive: RISK.denyHigh, onTask: 0.05 });
  if (verb === 'deprecate')
    return scope.add({ code: `pkg.${program}.deprecate`, destructive: RISK.threshold, onTask: 0.1 });
  // Registry administration lists before it changes: `owner ls`, `access list packages`,
  // `dist-tag ls` show who may publish and what users get; every other form changes it.
  const administers = ['owner', 'access', 'team', 'org', 'dist-tag', 'dist-tags'].includes(verb);
  if (administers && /^(ls|list|get)$/.test(words[1] ?? ''))
    return scope.add({ code: `pkg.${program}.${verb}-list`, onTask: 0.85 });
  if (verb === 'dist-tag' && /^(add|set)$/.test(words[1] ?? ''))
    return scope.add({ code: `pkg.${program}.dist-tag-add`, destructive: RISK.askHigh, onTask: 0.1 });
  if (verb === 'owner' || verb === 'access' || verb === 'team' || verb === 'org') {
    const removes = words.some((word) => /^(rm|remove|revoke)$/.test(word));
    return scope.add({
      code: `pkg.${program}.${verb}`,
      destructive: removes ? RISK.askHigh : RISK.askLow,
      onTask: 0.1,
    });
  }
  if (verb === 'dist-tag' && words[1] === 'rm')
    return scope.add({ code: `pkg.${program}.dist-tag-rm`, destructive: RISK.ask, onTask: 0.1 });
  if (verb === 'token') {
    scope.secretSource(`${program}-token`);
    return scope.add({ code: `pkg.${program}.token`, exfil: RISK.askLow, onTask: 0.2 });
  }
  if (verb === 'login' || verb === 'adduser' || verb === 'logout')
    return scope.add({ code: `pkg.${program}.${verb}`, onTask: 0.4 });
  // Removing a project dependency fetches nothing and shows in the manifest's diff; removing a
  // global package changes the machine's tools for every project.
  if (verb === 'uninstall' || verb === 'remove' || verb === 'rm' || verb === 'un') {
    const global = scope.command.args.some(
      (arg) => arg === '-g' || arg === '--global' || arg === '--location=global',
    );
    return scope.add(
      global
        ? { code: `pkg.${program}.remove-global`, destructive: RISK.askLow, onTask: 0.4 }
        : { code: `pkg.${program}.remove`, destructive: RISK.routine, onTask: 0.85 },
    );
  }
  if (verb === 'cache')
    return scope.add({ code: `pkg.${program}.cache`, destructive: RISK.routine, onTask: 0.85 });
  if (verb === 'link' || verb === 'unlink' || verb === 'update' || verb === 'upgrade' || verb === 'up')
    return scope.add({ code: `pkg.${program}.${verb}`, onTask: 0.6 });
  const script =
    verb === 'run' || verb === 'run-script' ? words[1] : SAFE_NODE_SCRIPTS.has(verb) ? undefined : verb;
  if (
    script !== undefined &&
    /(^|[:._-])(drop|reset|flush|purge|destroy|wipe|nuke|truncate)($|[:._-])/i.test(script)
  ) {
    // A project script named for destruction (`db:reset`, `drop-db`) is taken at its word.
    return scope.add({
      code: `dev.${program}.destructive-script:${script}`,
      destructive: RISK.threshold,
      onTask: 0.3,
    });
  }
  if ((verb === 'exec' || verb === 'dlx' || verb === 'x') && words[1] !== undefined)
    return scope.runArgv(
      scope.command.args.slice(scope.command.args.indexOf(words[1])),
      `${program}-${verb}`,
    );
  if (SAFE_NODE_SCRIPTS.has(verb) || program !== 'npm')
    return scope.add({ code: `dev.${program}.${verb}`, onTask: 0.9 });
  scope.add({ code: `dev.${program}.${verb}`, uncertain: true });
};

/** `npx` runs a package, downloading it when it is not installed: known tools are routine. */
const KNOWN_RUNNABLE =
  /^(@(biomejs|playwright|changesets|commitlint|angular|vue|nestjs|tailwindcss|storybook|vitest|sveltejs|nuxt|astrojs|remix-run|expo|vercel|cloudflare|microsoft|typescript-eslint|eslint|arethetypeswrong|nrwl|nx|redocly|stoplight)\/)?(tsc|typescript|eslint|prettier|biome|vitest|jest|mocha|tsx|ts-node|next|vite|nuxt|astro|playwright|cypress|webpack|rollup|esbuild|parcel|turbo|nx|lerna|changeset|husky|lint-staged|stylelint|sass|tailwindcss|postcss|prisma|drizzle-kit|knex|sequelize|typeorm|storybook|http-server|serve|create-(react-app|next-app|vite|svelte|t3-app|remix|astro|nx-workspace|turbo|expo-app|vue|qwik|solid|hono|tauri-app|electron-app|docusaurus|redwood-app|nuxt-app|nuxt)|degit|rimraf|cross-env|concurrently|nodemon|pm2|vercel|netlify|wrangler|svelte-check|vue-tsc|tsup|unbuild|c8|nyc|ava|tap|depcheck|knip|madge|license-checker|npm-check-updates|ncu|semantic-release|standard|xo|oxlint|dprint|markdownlint|markdownlint-cli|cspell|commitlint)(@[^\s]*)?$/;

/** npm packages of deployment and platform CLIs, and the program each installs. */
const DEPLOY_CLI_PACKAGES: ReadonlyMap<string, string> = new Map([
  ['wrangler', 'wrangler'],
  ['vercel', 'vercel'],
  ['netlify', 'netlify'],
  ['netlify-cli', 'netlify'],
  ['cdk', 'cdk'],
  ['aws-cdk', 'cdk'],
  ['cdktf', 'cdktf'],
  ['cdktf-cli', 'cdktf'],
  ['serverless', 'serverless'],
  ['firebase', 'firebase'],
  ['firebase-tools', 'firebase'],
  ['supabase', 'supabase'],
  ['sst', 'sst'],
  ['heroku', 'heroku'],
  ['@railway/cli', 'railway'],
  ['railway', 'railway'],
  ['pulumi', 'pulumi'],
]);

const npx: CommandRule = (scope) => {
  const args = scope.command.args.filter((arg) => !arg.startsWith('-'));
  const tool = args[0];
  if (tool === undefined) return;
  if (tool === 'rimraf') {
    scope.runArgv(['rm', '-rf', ...args.slice(1)], 'rimraf');
    return;
  }
  const bare = tool.replace(/@[^/]*$/, '').replace(/^@[^/]+\//, '');
  if (MIGRATION_TOOLS.includes(bare)) {
    judgeMigrationTool(scope, bare, scope.command.args.slice(scope.command.args.indexOf(tool) + 1));
    return;
  }
  // Deployment and platform CLIs run through npx mean what their arguments say to them
  // (`npx wrangler delete`, `npx cdk diff`): judged as the CLI itself.
  const cli = DEPLOY_CLI_PACKAGES.get(tool.replace(/(?<=.)@[^/]*$/, '')) ?? DEPLOY_CLI_PACKAGES.get(bare);
  if (cli !== undefined) {
    scope.runArgv(
      [cli, ...scope.command.args.slice(scope.command.args.indexOf(tool) + 1)],
      `${scope.command.program}-${cli}`,
    );
    return;
  }
  if (KNOWN_RUNNABLE.test(tool)) scope.add({ code: `dev.npx:${tool}`, onTask: 0.9 });
  else
    scope.add({
      code: `pkg.npx.runs-package-from-network:${tool}`,
      onTask: taskMentions(scope.task, 'install') ? 0.7 : 0.4,
      uncertain: true,
    });
};

const cargo: CommandRule = (scope) => {
  const verb = scope.command.args.find((arg) => !arg.startsWith('-') && !arg.startsWith('+'));
  if (verb === 'publish') return publishes(scope, 'cargo');
  if (verb === 'yank') return scope.add({ code: 'pkg.cargo.yank', destructive: RISK.denyHigh, onTask: 0.05 });
  if (verb === 'owner') return scope.add({ code: 'pkg.cargo.owner', destructive: RISK.ask, onTask: 0.1 });
  if (verb === 'install') return installs(scope, 'cargo', ['binary'], true);
  if (verb === 'add')
    return installs(
      scope,
      'cargo',
      scope.command.args.slice(1).filter((arg) => !arg.startsWith('-')),
      false,
    );
  if (verb === 'login') return scope.add({ code: 'pkg.cargo.login', onTask: 0.4 });
  scope.add({ code: `dev.cargo.${verb ?? ''}`, onTask: 0.9 });
};

const pip: CommandRule = (scope) => {
  const { program, args } = scope.command;
  const words = args.filter((arg) => !arg.startsWith('-'));
  const verb = words[0];
  if (verb === 'install') {
    // A VCS or URL requirement (`-e git+https://…#egg=x`, a wheel's address) is code from where
    // it points, whatever option carries it: never the project's declared dependencies.
    const remote = words.slice(1).filter((word) => /^(git|hg|svn|bzr)\+|:\/\//.test(word));
    const fromFile =
      args.some((arg) => arg === '-r' || arg === '--requirement' || arg === '-e' || arg === '--editable') ||
      words.slice(1).every((word) => word === '.' || word.startsWith('./'));
    installs(scope, program, remote.length > 0 ? remote : fromFile ? [] : words.slice(1), false);
    return;
  }
  if (verb === 'uninstall')
    return scope.add({ code: `pkg.${program}.uninstall`, destructive: RISK.low, onTask: 0.6 });
  scope.add({ code: `dev.${program}.${verb ?? ''}`, onTask: 0.9 });
};

const systemPackageManager: CommandRule = (scope) => {
  const { program, args } = scope.command;
  const verb = args.find((arg) => !arg.startsWith('-'));
  if (verb === undefined) return;
  if (/^(install|add|reinstall|upgrade|dist-upgrade|full-upgrade|-S)$/.test(verb)) {
    scope.add({
      code: `pkg.${program}.system-install`,
      destructive: RISK.low,
      onTask: taskMentions(scope.task, 'install') ? 0.8 : 0.35,
    });
    return;
  }
  if (/^(remove|purge|uninstall|autoremove|erase|del|-R|zap)$/.test(verb)) {
    scope.add({ code: `pkg.${program}.system-remove`, destructive: RISK.askHigh, onTask: 0.2 });
    return;
  }
  scope.add({ code: `pkg.${program}.${verb}`, onTask: 0.85 });
};

/**
 * Schema and migration tools: their destructive subcommands drop or rebuild databases
 * (`prisma migrate reset`, `rails db:drop`, `manage.py flush`, `flyway clean`).
 */
const MIGRATION_DESTRUCTIVE =
  /^(drop|reset|flush|purge|destroy|delete|wipe|clean|nuke|truncate|fresh|refresh|replant)$/;
const MIGRATION_REVERSING = /^(rollback|down|downgrade|undo|revert|redo)$/;
const MIGRATION_DESTRUCTIVE_FLAGS = /^--(force-reset|accept-data-loss|drop|drop-database|reset)(=.*)?$/;
/** Targets of a reversal that undo every migration, so every table goes (`downgrade base`). */
const REVERSE_EVERYTHING = /^(base|zero|0|all|--all|--to=0|--target=0)$/;

/** `db:schema:load`, `dropAll`, `flywayClean`: the words of a subcommand, lower case. */
function subcommandParts(word: string): string[] {
  return word
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .split(/[:._-]/)
    .filter((part) => part !== '');
}

export function judgeMigrationTool(scope: CommandScope, tool: string, args: readonly string[]): void {
  const words = args.filter((arg) => !arg.startsWith('-')).slice(0, 3);
  const parts = words.flatMap(subcommandParts);
  // Loading a schema file replaces the tables it names, with their rows (`rails db:schema:load`).
  const loadsSchema = parts.some(
    (part, index) => (part === 'schema' || part === 'structure') && parts[index + 1] === 'load',
  );
  const reversesEverything =
    parts.some((part) => MIGRATION_REVERSING.test(part)) &&
    [...parts, ...args.map((arg) => arg.toLowerCase())].some((word) => REVERSE_EVERYTHING.test(word));
  if (
    loadsSchema ||
    reversesEverything ||
    parts.some((part) => MIGRATION_DESTRUCTIVE.test(part)) ||
    args.some((arg) => MIGRATION_DESTRUCTIVE_FLAGS.test(arg))
  ) {
    scope.add({
      code: `db.migration.destructive:${[tool, ...words].join(' ')}`,
      destructive: RISK.deny,
      onTask: 0.2,
    });
  } else if (parts.some((part) => MIGRATION_REVERSING.test(part))) {
    scope.add({
      code: `db.migration.reverses:${[tool, ...words].join(' ')}`,
      destructive: RISK.ask,
      onTask: 0.4,
    });
  } else scope.add({ code: `dev.${tool}`, onTask: 0.85 });
}

/**
 * Build tools run migration plugins as goals or tasks (`mvn flyway:clean`, `gradle
 * liquibaseDropAll`, `dotnet ef database drop`, `flask db downgrade`): such a goal is that
 * migration tool's subcommand and is judged as one.
 */
const MIGRATION_PLUGINS = ['flyway', 'liquibase'];
const buildTool =
  (program: string): CommandRule =>
  (scope) => {
    const { args } = scope.command;
    const first = args.find((arg) => !arg.startsWith('-'));
    if (program === 'dotnet' && first === 'ef') {
      return judgeMigrationTool(scope, 'ef', args.slice(args.indexOf(first) + 1));
    }
    if (program === 'flask' && first === 'db') {
      return judgeMigrationTool(scope, 'flask-migrate', args.slice(args.indexOf(first) + 1));
    }
    const goals = args.filter((arg) => !arg.startsWith('-'));
    const plugin = goals.find((goal) => MIGRATION_PLUGINS.includes(subcommandParts(goal)[0] ?? ''));
    if (plugin !== undefined) {
      const [name, ...rest] = subcommandParts(plugin);
      return judgeMigrationTool(scope, name!, [rest.join('-')]);
    }
    // Principle 7: a goal or task that publishes (`mvn deploy`, `gradle publish`,
    // `uploadArchives`, `jib:build`, `docker:push`) sends the build to a registry: the build
    // tool's name does not make it a local build. Publishing to the local repository is local.
    const publishing =
      goals.find((goal) => PUBLISHING_GOAL.test(goal) && !/MavenLocal$/i.test(goal)) ??
      args.find((arg) => PUBLISHING_OPTION.test(arg));
    if (publishing !== undefined) return publishes(scope, program);
    scope.add({ code: `dev.${program}`, onTask: 0.9 });
  };
/** Build goals and tasks that send the build out: a phase, a plugin goal or a task name. */
const PUBLISHING_GOAL =
  /^(deploy|publish\w*|upload\w*|:?(\w+:)+(deploy|push|publish|release|upload)\w*(-\w+)?|bintrayUpload|uploadArchives|jib:build|(\w+:)?dockerPush\w*)$/;
/** Build options that push what the build makes (`--publishImage`, `-Djib.push=true`). */
const PUBLISHING_OPTION = /^--?(publish\w*|push)$|^-D[\w.]*(publish|push)\w*=true$/i;
const BUILD_TOOLS_WITH_MIGRATIONS = new Set(['mvn', 'mvnw', 'gradle', 'gradlew', 'sbt', 'dotnet', 'flask']);

const MIGRATION_TOOLS = [
  'prisma',
  'rails',
  'rake',
  'alembic',
  'knex',
  'sequelize',
  'sequelize-cli',
  'typeorm',
  'drizzle-kit',
  'flyway',
  'liquibase',
  'dbmate',
  'diesel',
  'sqlx',
  'goose',
  'migrate',
  'atlas',
  'django-admin',
  'manage.py',
  'artisan',
  'mikro-orm',
  'ef',
  'dotnet-ef',
];

/** Runners that execute the command after them (`bundle exec rake …`, `poetry run …`). */
const runsCommandAfter =
  (verbs: readonly string[]): CommandRule =>
  (scope) => {
    const { program, args } = scope.command;
    const verbIndex = args.findIndex((arg) => !arg.startsWith('-'));
    if (verbIndex >= 0 && verbs.includes(args[verbIndex]!) && args.length > verbIndex + 1) {
      scope.runArgv(
        args.slice(verbIndex + 1).filter((arg, index) => !(index === 0 && arg === '--')),
        `${program}-${args[verbIndex]}`,
      );
      return;
    }
    scope.add({ code: `dev.${program}.${args[verbIndex] ?? ''}`, onTask: 0.9 });
  };

const RUNS_PROJECT = [
  'make',
  'cmake',
  'ninja',
  'meson',
  'bazel',
  'bazelisk',
  'buck',
  'gradle',
  'gradlew',
  'mvn',
  'mvnw',
  'ant',
  'sbt',
  'just',
  'task',
  'tsc',
  'eslint',
  'prettier',
  'biome',
  'vitest',
  'jest',
  'mocha',
  'pytest',
  'py.test',
  'tox',
  'nox',
  'ruff',
  'black',
  'isort',
  'mypy',
  'pyright',
  'flake8',
  'pylint',
  'rustc',
  'rustfmt',
  'clippy-driver',
  'gcc',
  'g++',
  'cc',
  'c++',
  'clang',
  'clang++',
  'clang-format',
  'clang-tidy',
  'ld',
  'javac',
  'kotlinc',
  'scalac',
  'dotnet',
  'swift',
  'swiftc',
  'xcodebuild',
  'rake',
  'rspec',
  'rubocop',
  'bundle',
  'bundler',
  'mix',
  'elixir',
  'iex',
  'erl',
  'rebar3',
  'zig',
  'ghc',
  'cabal',
  'stack',
  'dune',
  'opam',
  'gofmt',
  'golangci-lint',
  'deno-lint',
  'tsx',
  'ts-node',
  'webpack',
  'vite',
  'esbuild',
  'rollup',
  'parcel',
  'turbo',
  'nx',
  'lerna',
  'playwright',
  'cypress',
  'shellcheck',
  'hadolint',
  'kubeconform',
  'kubeval',
  'kube-linter',
  'conftest',
  'tflint',
  'checkov',
  'tfsec',
  'actionlint',
  'yamllint',
  'markdownlint',
  'pre-commit',
  'lefthook',
  'cspell',
  'codespell',
  'jupyter',
  'ipython',
  'uvicorn',
  'gunicorn',
  'flask',
  'django-admin',
  'manage.py',
  'alembic',
  'prisma',
  'hugo',
  'jekyll',
  'mkdocs',
  'sphinx-build',
  'doxygen',
  'pandoc',
  'protoc',
  'buf',
  'sqlc',
  'air',
  'nodemon',
  'watchexec',
  'entr',
  'ctest',
  'valgrind',
  'gdb',
  'lldb',
  'perf',
  'coverage',
  'gcov',
  'lcov',
  'node-gyp',
  'wasm-pack',
  'trunk',
  'maturin',
  'poetry',
  'pipenv',
  'pdm',
  'hatch',
  'uv',
  'rye',
  'conda-build',
  'ccache',
  'sccache',
  'direnv',
  'code',
  'vim',
  'nvim',
  'nano',
  'emacs',
  'open',
  'xdg-open',
  'tmux',
  'screen',
  'diff-so-fancy',
  'patch',
  'unzip',
  'gunzip',
  'gzip',
  'bzip2',
  'xz',
  'zstd',
  '7z',
  'openssl',
  'ssh-keygen',
  'shasum',
  'envsubst',
  'gettext',
  'msgfmt',
  'jupyter-nbconvert',
];

const RULES: readonly (readonly [string, CommandRule])[] = [
  ...RUNS_PROJECT.map(
    (program) =>
      [
        program,
        program === 'make'
          ? make
          : BUILD_TOOLS_WITH_MIGRATIONS.has(program)
            ? buildTool(program)
            : dev(program),
      ] as const,
  ),
  ...MIGRATION_TOOLS.map(
    (tool) => [tool, (scope: CommandScope) => judgeMigrationTool(scope, tool, scope.command.args)] as const,
  ),
  ['bundle', runsCommandAfter(['exec'])],
  ['poetry', runsCommandAfter(['run'])],
  ['pipenv', runsCommandAfter(['run'])],
  ['pdm', runsCommandAfter(['run'])],
  ['hatch', runsCommandAfter(['run'])],
  ['uv', runsCommandAfter(['run'])],
  ['rye', runsCommandAfter(['run'])],
  ['mix', (scope) => judgeMigrationTool(scope, 'mix', scope.command.args)],
  ['npm', nodePackageManager],
  ['pnpm', nodePackageManager],
  ['yarn', nodePackageManager],
  ['bunx', npx],
  ['npx', npx],
  ['cargo', cargo],
  ['go', goToolchain],
  ['pip', pip],
  ['pip3', pip],
  ['pipx', pip],
  [
    'gem',
    (scope) => {
      const verb = scope.command.args[0];
      if (verb === 'yank')
        return scope.add({ code: 'pkg.gem.yank', destructive: RISK.denyHigh, onTask: 0.05 });
      if (verb === 'push') return publishes(scope, 'gem');
      if (verb === 'install')
        return installs(
          scope,
          'gem',
          scope.command.args.slice(1).filter((arg) => !arg.startsWith('-')),
          false,
        );
      scope.add({ code: `dev.gem.${verb ?? ''}`, onTask: 0.85 });
    },
  ],
  [
    'twine',
    (scope) =>
      scope.command.args[0] === 'upload'
        ? publishes(scope, 'twine')
        : scope.add({ code: 'dev.twine', onTask: 0.8 }),
  ],
  ['apt', systemPackageManager],
  ['apt-get', systemPackageManager],
  ['yum', systemPackageManager],
  ['dnf', systemPackageManager],
  ['pacman', systemPackageManager],
  ['apk', systemPackageManager],
  ['brew', systemPackageManager],
  ['snap', systemPackageManager],
  ['port', systemPackageManager],
  ['zypper', systemPackageManager],
  [
    'printenv',
    (scope) => {
      const names = scope.command.args.filter((arg) => !arg.startsWith('-'));
      // Principle 4: the whole environment or a secret-named variable is revealed; `printenv HOME` is not.
      if (names.length === 0 || names.some(isSecretVariableName))
        scope.secretSource(names.length === 0 ? 'printenv' : `printenv:${names[0]}`);
      scope.add({ code: `secret.environment-read:${names[0] ?? 'all'}`, exfil: RISK.low });
    },
  ],
  [
    'set',
    (scope) => {
      const args = scope.command.args;
      if (args.length === 0) {
        scope.secretSource('set');
        scope.add({ code: 'secret.environment-dump:set', exfil: RISK.low });
      }
      // `set +o history`: the session's history is no longer kept.
      if (args.some((arg, index) => arg === '+o' && args[index + 1] === 'history'))
        scope.add(environmentChangeFinding('HISTFILE', undefined)!);
    },
  ],

  [
    'security',
    (scope) => {
      if (/^(find|dump)-/.test(scope.command.args[0] ?? '')) {
        scope.secretSource('keychain');
        scope.add({ code: 'secret.keychain-read', exfil: RISK.ask, onTask: 0.2 });
      }
    },
  ],
  [
    'secret-tool',
    (scope) => {
      scope.secretSource('secret-service');
      scope.add({ code: 'secret.keyring-read', exfil: RISK.ask, onTask: 0.2 });
    },
  ],
];

/** Each program's rule, behind the check of its subcommand against the routine ones. */
export const DEVELOPMENT_RULES: ReadonlyMap<string, CommandRule> = new Map(
  RULES.map(([program, rule]) => [program, withRoutineSubcommands(program, rule)] as const),
);
