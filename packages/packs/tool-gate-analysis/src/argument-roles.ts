import { runsMiner } from './code-hazards.js';
import { environmentChangeFinding } from './environment-change.js';
import type { Finding } from './finding.js';
import { isLoopbackHost } from './loopback-host.js';
import { isDefaultRegistryHost, SOURCE_SETTING } from './package-source.js';
import { classifyPath } from './path-scope.js';
import { persistenceFinding, persistenceKind } from './persistence-target.js';
import { READ_ONLY_PROGRAMS } from './program-catalog.js';
import { RISK } from './risk-scale.js';
import { type OptionSpec, parseArguments } from './rules/option-parse.js';
import { isCredentialPath, isKeyMaterialPath, isSecretVariableName, SECRET_SHAPE } from './secret-source.js';
import type { CommandScope } from './shell-command.js';
import { taskMentions } from './task-scope.js';
import {
  environmentWeakensTransportTrust,
  isTransportTrustSwitch,
  TRUST_OPTION,
  transportTrustFinding,
  weakensTransportTrust,
} from './transport-trust.js';

/**
 * The roles an argument plays, whatever the program: a path the program reads, a path it
 * writes, a URL or host it reaches, a code string it runs. Every simple command's arguments are
 * mapped into these roles before its program's own rule runs, so a program the analyser has
 * never heard of is still judged by what it touches (principle 1 of issue 14). Per-program
 * knowledge only refines the defaults (which positional a copy writes, which option of tar
 * extracts).
 */
export type ArgumentRole = 'path-read' | 'path-written' | 'url' | 'code' | 'listen-all';

export interface RoledArgument {
  role: ArgumentRole;
  value: string;
  /** The option that gave the role (`--output`), or the empty string for a positional. */
  via: string;
}

/**
 * Principle 1: an output option of any program writes where it names (`-o`, `--output`,
 * `-out`, `--result-file`, `-fprintf`, `--junit-xml`, …).
 */
/** Programs whose first pattern argument is what they search for. */
const SEARCH_PROGRAMS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'zgrep', 'ugrep']);
/** Single-dash long options that name a file read, as OpenSSL and keytool spell them. */
const INPUT_OPTION = /^(-in|-inkey|-CAkey|-signkey|-certfile|-keystore|-srckeystore)$/;
const OUTPUT_OPTION =
  /^(-o|-O|-out|--out|-keyout|-fprint0?|-fprintf|-fls|--[a-z-]*(output|outfile|out-file|output-?file|output-?path|output-dir|output-directory|outdir|out-dir|result-file|report-file|log-file|junit-?xml|junitxml|dump-to|save-to|write-to|output-document|target-directory|coverage-?directory|reports?-?dir(ectory)?|base-?temp))$/i;

/**
 * Principle 2: options whose value is a command the program runs (`--rsh`, `--eval`, `-ex`,
 * `--exec`, `--password-command`, `--checkpoint-action`, `-wrapper`, `-TT`, `--up`, …). The
 * names are general spellings, not one program's.
 */
const CODE_OPTION =
  /^(--?(eval|exec|execute|rsh|wrapper|password-command|passwordcommand|checkpoint-action|to-command|use-compress-program|command|cmd|run-command|shell-command|on-[a-z-]+|up|down|route-up|ipchange|learn-address|ex|TT|unzip-command|proxy-?command|init-command|pre-?exec|post-?exec|hook)|-e)$/i;

/** `KEY=value` settings that name a command (`-o APT::Update::Pre-Invoke::=…`, `-c core.pager=…`, `-o ProxyCommand=…`). */
const CODE_SETTING_KEY =
  /(invoke|command|exec|hook|pager|editor|proxy|askpass|ssh|fsmonitor|sshcommand|helper|wrapper|shell)/i;

/**
 * Principle 2: environment variables whose value a program runs as a command or loads as code.
 */
const CODE_ENVIRONMENT =
  /^(PAGER|GIT_PAGER|MANPAGER|SYSTEMD_PAGER|EDITOR|VISUAL|GIT_EDITOR|SVN_EDITOR|LESSOPEN|LESSCLOSE|PROMPT_COMMAND|BASH_ENV|ENV|ZDOTDIR|LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES|PERL5OPT|PERL5LIB|RUBYOPT|NODE_OPTIONS|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|GIT_SSH|GIT_SSH_COMMAND|GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|SUDO_ASKPASS|GIT_PROXY_COMMAND|GIT_CONFIG_PARAMETERS|[A-Z0-9_]*_(COMMAND|CMD|EXEC|HOOK))$/;

/**
 * Metadata programs that still read the whole file to print a digest, a count or a type. What
 * they print reveals little of a credential, but opening one is not a coding agent's business.
 */
const DIGESTS_CONTENT = new Set([
  'wc',
  'cksum',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'shasum',
  'b2sum',
  'md5',
  'file',
]);

/** Programs that never read file contents: only names, sizes and metadata (or a hash). */
const METADATA_ONLY = new Set([
  ...DIGESTS_CONTENT,
  'ls',
  'll',
  'la',
  'dir',
  'stat',
  'test',
  '[',
  '[[',
  'du',
  'realpath',
  'readlink',
  'basename',
  'dirname',
  'namei',
  'tree',
  'exa',
  'eza',
  'lsd',
  'lsattr',
  'getfacl',
  'mkdir',
  'touch',
  'cd',
  'pushd',
  'chmod',
  'ssh-keygen',
  // They print their arguments and open nothing.
  'echo',
  'printf',
]);

/** Programs that print their arguments and reach nothing. */
const DISPLAY_ONLY = new Set([
  'echo',
  'printf',
  'test',
  '[',
  '[[',
  'grep',
  'rg',
  'sed',
  'awk',
  'jq',
  'yq',
  'cut',
  'tr',
]);

/** Per-program refinement: which positional a program writes (copies, links, installs). */
const WRITES_LAST_OPERAND = new Set(['cp', 'mv', 'ln', 'install', 'rsync', 'ditto', 'scp']);
/** Verbs of any CLI that copy their first operands to the last (`gsutil cp`, `aws s3 cp`, `kubectl cp`, `rclone copy`). */
const COPY_VERBS = new Set(['cp', 'mv', 'copy', 'copyto', 'moveto', 'sync', 'download', 'rsync']);
const WRITES_EVERY_OPERAND = new Set(['tee', 'touch', 'truncate']);
/** `xxd [-r] IN OUT`: a second operand is the output. */
const WRITES_SECOND_OPERAND = new Set(['xxd']);
/** Options that carry a command for one program only. */
const PROGRAM_CODE_OPTIONS: Readonly<Record<string, readonly string[]>> = Object.assign(Object.create(null), {
  split: ['--filter'],
  man: ['-P', '--pager'],
});
/** sed's `w FILE` (after an optional address) and the `w FILE` flag of `s///`. */
const SED_WRITE =
  /(?:^|[;\n{}])\s*(?:\d+(?:,\d+)?|\$|\/(?:[^/\\]|\\.)*\/)?\s*[wW]\s+([^;\n}\s]+)|\/[gpiIeEmM0-9]*w\s+([^;\n}\s]+)/g;
/** Archivers write the archive named first. */
const WRITES_FIRST_OPERAND = new Set(['zip', 'jar']);
const EDITORS = new Set(['vim', 'vi', 'nvim', 'ex', 'view', 'gvim', 'mvim', 'vimdiff']);
const EDITOR_CODE =
  /!|\b(lua|luado|py3?|python3?|pydo|perl|perldo|ruby|rubydo|mzscheme|tcl|system|systemlist|terminal|shell|sh|call|exe(cute)?|source|so|w\s*!|r\s*!)\b/;

/** Programs that run a script file given as an operand (principle 2). */
export const SCRIPT_RUNNERS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'source',
  '.',
  'python',
  'python3',
  'node',
  'deno',
  'bun',
  'ruby',
  'perl',
  'php',
  'lua',
  'Rscript',
  'pwsh',
  'tsx',
  'ts-node',
  'go',
  'cmake',
  'make',
  'awk',
  'gawk',
]);
/** Source files that run when handed to a runner or compiler. */
const SCRIPT_FILE = /\.(sh|bash|zsh|py|pl|rb|js|mjs|cjs|ts|php|lua|go|cmake|mk|ps1|r|awk)$/i;

/** Values that look like a command rather than a word: a program followed by arguments, pipes, or substitutions. */
const COMMAND_SHAPED = /[|;&`]|\$\(|^\s*!|(^|\s)(sh|bash|zsh|curl|wget|nc|rm|python3?|node|perl|ruby)(\s|$)/;

/** A value that is one plain program (optionally with plain flags) the analyser knows to only display: `cat`, `less -R`. */
const PLAIN_DISPLAY_PROGRAMS = new Set([
  'cat',
  'less',
  'more',
  'most',
  'bat',
  'delta',
  'vim',
  'vi',
  'nvim',
  'nano',
  'emacs',
  'code',
  'subl',
  'diff-so-fancy',
  'true',
  'ssh',
]);

function isPlainDisplayCommand(value: string): boolean {
  const words = value.trim().split(/\s+/);
  if (!/^[\w./-]+$/.test(words[0] ?? '')) return false;
  const base = words[0]!.slice(words[0]!.lastIndexOf('/') + 1);
  return (
    PLAIN_DISPLAY_PROGRAMS.has(base) && words.slice(1).every((word) => /^-{1,2}[\w-]+(=[\w.-]+)?$/.test(word))
  );
}

/** Principle 6: an address on every interface (`0.0.0.0`, `::`, with a port), alone or after `=`, `:` or a space. */
const LISTEN_ALL = /(^|[=:\s])(0\.0\.0\.0|\[?::\]?)(:\d+)?$/;
const URL = /^[a-z][a-z0-9+.-]*:\/\/\S+/i;

function looksLikePath(value: string): boolean {
  if (value === '' || value.length > 4096) return false;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return false;
  return (
    /^(~|\/|\.{1,2}\/|\$\{?(HOME|TMPDIR)\b)/.test(value) ||
    /(^|\/)\.[A-Za-z0-9_-]+/.test(value) ||
    value.includes('/')
  );
}

/**
 * The options the roles read a value from, for `program`: per-program code options, input and
 * output options, tar's and unzip's directory, code options and an editor's commands. Every other
 * option is read as a flag, so a word after it is an operand (the roles do not know which
 * options of an unknown program take a value, and an operand is judged as a path anyway).
 */
function roleOptionSpec(program: string): OptionSpec {
  const editor = EDITORS.has(program);
  const programCode = PROGRAM_CODE_OPTIONS[program] ?? [];
  const directory = program === 'tar' ? ['-C', '--directory'] : program === 'unzip' ? ['-d'] : [];
  return (name) => {
    if (
      programCode.includes(name) ||
      INPUT_OPTION.test(name) ||
      OUTPUT_OPTION.test(name) ||
      directory.includes(name) ||
      (editor && (name === '-c' || name === '--cmd'))
    )
      return { takesValue: true };
    // A code option's value is the next word only when that word is not an option.
    if (isCodeOption(program, name)) return { takesValue: true, valueNotOption: true };
    return undefined;
  };
}

function isCodeOption(program: string, name: string): boolean {
  return (
    CODE_OPTION.test(name) &&
    !READS_OWN_CODE.has(program) &&
    !(name === '-e' && !CODE_E_PROGRAMS.has(program))
  );
}

/** `Key=value` whose key names a command (`ProxyCommand=…`, `core.pager=…`): the value, with the key. */
function codeSetting(value: string | undefined): { key: string; value: string } | undefined {
  const setting = value === undefined ? null : /^([\w.:-]+?):{0,2}=(.*)$/s.exec(value);
  return setting !== null && CODE_SETTING_KEY.test(setting[1]!)
    ? { key: setting[1]!, value: setting[2]! }
    : undefined;
}

/**
 * Maps a command's arguments into roles (principle 1: whatever the program), read with the one
 * option parser: single-dash words whole (`-keyout`, `-fprintf`), as programs of every kind spell
 * them, or a value-taking letter with its value attached (`-o/tmp/x`).
 */
export function roleArguments(program: string, args: readonly string[]): RoledArgument[] {
  const roles: RoledArgument[] = [];
  const operands: string[] = [];
  const parsed = parseArguments(args, roleOptionSpec(program), {
    clusters: false,
    negativeNumbers: 'option',
  });
  const end = parsed.endOfOptions ?? args.length;
  const tokens = parsed.tokens;
  for (let at = 0; at < tokens.length; at += 1) {
    const token = tokens[at]!;
    const arg = args[token.index]!;
    if (token.kind === 'positional') {
      // After `--` every word is an operand.
      if (token.index > end) {
        operands.push(arg);
        continue;
      }
      // `-` is standard input or output: no path.
      if (arg === '-') continue;
      // Per-program refinement: an editor's `+cmd` is an editor command.
      if (EDITORS.has(program) && arg.startsWith('+')) {
        const value = arg.slice(1);
        if (EDITOR_CODE.test(value)) roles.push({ role: 'code', value, via: '+' });
        continue;
      }
      // Per-program refinement: SQL clients' `.shell`, `.system` and `\!` run the rest as shell.
      if (/^\s*(\.shell|\.system|\\!)\s/.test(arg)) {
        roles.push({
          role: 'code',
          value: arg.replace(/^\s*(\.shell|\.system|\\!)\s+/, ''),
          via: 'sql-shell',
        });
        continue;
      }
      if (LISTEN_ALL.test(arg)) roles.push({ role: 'listen-all', value: arg, via: arg });
      if (URL.test(arg)) roles.push({ role: 'url', value: arg, via: arg });
      else operands.push(arg);
      continue;
    }
    let { name, value } = token;
    if (token.clustered) {
      // `-oKey=value` (ssh's `-oProxyCommand=…`): a setting whose key names a command.
      const setting = name === '-o' ? codeSetting(value) : undefined;
      if (setting !== undefined) {
        roles.push({ role: 'code', value: setting.value, via: `-o ${setting.key}` });
        continue;
      }
      // Otherwise a word that starts with a value-taking letter is read whole, as the many
      // programs with single-dash word options spell them (`-outform`, `-Ofast`, `-offset=N`).
      const equals = arg.indexOf('=');
      name = equals > 0 ? arg.slice(0, equals) : arg;
      value = equals > 0 ? arg.slice(equals + 1) : undefined;
    }
    // `-o Key=value`, `-c key=value`, `--config key=value`: a setting whose key names a command.
    // `-c` and `--config` take no value otherwise: the setting is the next word.
    if (
      (name === '-o' || name === '-c' || name === '--config') &&
      (value === undefined || token.separateValue)
    ) {
      const following = tokens[at + 1];
      const separate = token.separateValue
        ? value
        : following?.kind === 'positional' && following.index === token.index + 1 && following.index < end
          ? following.value
          : undefined;
      const setting = codeSetting(separate);
      if (setting !== undefined) {
        if (!token.separateValue) at += 1;
        roles.push({ role: 'code', value: setting.value, via: `${name} ${setting.key}` });
        continue;
      }
    }
    // Per-program refinement: options whose value is a command for that program only
    // (`split --filter 'cmd'`, `man -P 'pager'`); elsewhere the same names mean something else.
    if (PROGRAM_CODE_OPTIONS[program]?.includes(name)) {
      if (value !== undefined) roles.push({ role: 'code', value, via: name });
      continue;
    }
    // OpenSSL-style input options name the file read (`-in cert.p12`, `-inkey key.pem`).
    if (INPUT_OPTION.test(name)) {
      if (value !== undefined) roles.push({ role: 'path-read', value, via: name });
      continue;
    }
    // Per-program refinement: tar extracts into its `-C` directory, unzip into its `-d`.
    const tarExtractDirectory =
      (program === 'tar' && (name === '-C' || name === '--directory')) ||
      (program === 'unzip' && name === '-d');
    if (OUTPUT_OPTION.test(name) || tarExtractDirectory) {
      if (value !== undefined) roles.push({ role: 'path-written', value, via: name });
      continue;
    }
    if (isCodeOption(program, name)) {
      if (value !== undefined) roles.push({ role: 'code', value, via: name });
      continue;
    }
    // `-Dexec.executable=sh`, `-Dexec.args=…`: a build property whose key names a command.
    const property = /^-D([\w.-]+)=(.*)$/s.exec(arg);
    if (property !== null && CODE_SETTING_KEY.test(property[1]!)) {
      roles.push({ role: 'code', value: property[2]!, via: `-D${property[1]}` });
      continue;
    }
    // Per-program refinement: an editor's `-c cmd` and `--cmd cmd` are editor commands; those
    // that reach a shell or a language (`:!…`, `lua …`, `system(…)`) are code.
    if (EDITORS.has(program) && (name === '-c' || name === '--cmd')) {
      if (value !== undefined && EDITOR_CODE.test(value)) roles.push({ role: 'code', value, via: name });
      continue;
    }
    // Principle 6: binding to every interface (`--host=0.0.0.0`, `-b0.0.0.0`).
    if (LISTEN_ALL.test(arg) || arg === '--host=0.0.0.0')
      roles.push({ role: 'listen-all', value: arg, via: name });
    if (value !== undefined && URL.test(value)) roles.push({ role: 'url', value, via: name });
    else if (value !== undefined && looksLikePath(value)) roles.push({ role: 'path-read', value, via: name });
  }
  // Per-program refinement: sed's `w FILE` command and `s///w FILE` flag write FILE.
  if (program === 'sed' || program === 'gsed')
    for (const arg of args)
      for (const match of arg.matchAll(SED_WRITE))
        roles.push({ role: 'path-written', value: match[1] ?? match[2]!, via: 'sed-w' });
  const last = operands.length - 1;
  const copies =
    WRITES_LAST_OPERAND.has(program) || operands.slice(0, 2).some((operand) => COPY_VERBS.has(operand));
  operands.forEach((operand, position) => {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(operand)) return;
    if (!looksLikePath(operand) && !operand.startsWith('.')) return;
    const written =
      WRITES_EVERY_OPERAND.has(program) ||
      (copies && position === last && last > 0) ||
      (WRITES_FIRST_OPERAND.has(program) && position === 0) ||
      (WRITES_SECOND_OPERAND.has(program) && position === 1);
    roles.push({ role: written ? 'path-written' : 'path-read', value: operand, via: '' });
  });
  return roles;
}

/** Programs whose own rule reads their inline code (`node --eval`, `mongosh --eval`, `psql -c`): per-program knowledge refines the default. */
const READS_OWN_CODE = new Set([
  'node',
  'nodejs',
  'deno',
  'bun',
  'python',
  'python3',
  'perl',
  'ruby',
  'php',
  'mongosh',
  'mongo',
  'psql',
  'mysql',
  'mariadb',
  'sqlite3',
  'redis-cli',
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'su',
  'find',
  'xargs',
  'parallel',
  'watch',
]);

/** Programs whose `-e` takes a command or program text (elsewhere `-e` is a pattern or a flag). */
const CODE_E_PROGRAMS = new Set([
  'rsync',
  'ghc',
  'ghci',
  'runghc',
  'ocaml',
  'sbcl',
  'clisp',
  'guile',
  'racket',
  'julia',
  'R',
  'Rscript',
  'octave',
  'lua',
  'luajit',
  'erl',
  'elixir',
  'iex',
  'tclsh',
  'scala',
  'groovy',
  'kotlin',
  'swift',
  'osascript',
  'xterm',
  'gnome-terminal',
  'konsole',
]);

/**
 * Judges the roles of a command's arguments and its environment. The program's own rule runs
 * after this and may be stricter; the strictest finding decides.
 */
export function judgeArguments(scope: CommandScope): void {
  const { program, args } = scope.command;
  // A miner gives the machine's work to someone else, whatever starts it.
  if (runsMiner(program, args)) scope.add({ code: 'proc.miner', destructive: RISK.denyHigh, onTask: 0.02 });
  for (const { name, value } of scope.command.environment ?? []) judgeEnvironment(scope, name, value);
  // A search for a live secret's shape (a key header, a token prefix) prints the secrets it finds.
  if (SEARCH_PROGRAMS.has(program) || (program === 'git' && args[0] === 'grep')) {
    const pattern = args.find((arg) => SECRET_SHAPE.test(arg));
    if (pattern !== undefined) {
      scope.secretSource(`search:${pattern}`);
      scope.add({ code: `secret.harvest-pattern:${program}`, exfil: RISK.ask, onTask: 0.2 });
    }
  }
  // A query that selects a container's environment (`.Config.Env`, `{{.Config.Env}}`) reads the
  // secrets a container is given.
  if (args.some((arg) => /\.Config\.Env\b/.test(arg))) {
    scope.secretSource('container-environment');
    scope.add({ code: 'secret.container-environment', exfil: RISK.ask, onTask: 0.3 });
  }
  const metadataOnly =
    METADATA_ONLY.has(program) ||
    (program === 'find' && !args.some((arg) => /^-(exec|execdir|ok|okdir|fprintf|fprint0?|fls)$/.test(arg)));
  for (const roled of roleArguments(program, args)) {
    switch (roled.role) {
      case 'path-read':
        if (!metadataOnly) judgeSensitiveRead(scope, roled.value);
        else if (DIGESTS_CONTENT.has(program)) judgeDigestedRead(scope, roled.value);
        break;
      case 'path-written':
        judgeWrittenPath(scope, roled);
        break;
      case 'code':
        judgeCodeArgument(scope, roled);
        break;
      case 'listen-all':
        // Principle 6: a listener on every interface exposes the machine to the network.
        scope.add({ code: `net.listen-all-interfaces:${program}`, exfil: RISK.ask, onTask: 0.5 });
        break;
      case 'url':
        // Principle 3: any program given a URL may send what it holds there.
        if (!DISPLAY_ONLY.has(program)) {
          const host = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/\s]*@)?(\[[^\]]+\]|[^:/?#\s]+)/i.exec(roled.value)?.[1];
          if (host !== undefined && !isLoopbackHost(host)) scope.networkSink(`url:${host.toLowerCase()}`);
        }
        break;
    }
  }
  if (!metadataOnly) judgeCredentialGlobs(scope, args);
  judgeScriptOperands(scope);
  judgeTunnelsAndSupply(scope);
}

/**
 * Principle 2: a script the gate cannot read is code it cannot judge: one written earlier in
 * this same call, one outside the workspace (a temporary or home directory), or a process
 * substitution (`bash <(curl …)`). The project's own scripts are read by the agent and allowed.
 */
function judgeScriptOperands(scope: CommandScope): void {
  const { program, args } = scope.command;
  const runner = SCRIPT_RUNNERS.has(program);
  // `sh -c "{}"`, `bash -c "$1"`: the code is whatever the input or the caller supplies.
  const inline = args.indexOf('-c');
  if (runner && inline >= 0 && /^\s*("?(\{\}|\$[@*1-9]|\$\{[@*1-9]\})"?\s*)+$/.test(args[inline + 1] ?? '')) {
    scope.add({
      code: `code.placeholder:${program}`,
      uncertain: true,
      destructive: RISK.askHigh,
      onTask: 0.4,
    });
  }
  for (const arg of args) {
    const value = arg.replace(/^(--?[\w-]+=)+/, '');
    if (runner && value.startsWith('<(')) {
      scope.add({
        code: `code.process-substitution:${program}`,
        uncertain: true,
        destructive: RISK.askHigh,
        onTask: 0.4,
      });
      continue;
    }
    if (!SCRIPT_FILE.test(value) || READ_ONLY_PROGRAMS.has(program) || METADATA_ONLY.has(program)) continue;
    const path = scope.path(value);
    if (scope.written(path.normalised) && runner) {
      scope.add({
        code: `code.written-then-run:${path.normalised}`,
        uncertain: true,
        destructive: RISK.askHigh,
        onTask: 0.4,
      });
    } else if (path.scope !== 'workspace' && path.scope !== 'workspace-all') {
      scope.add({
        code: `code.script-outside-workspace:${path.normalised}`,
        uncertain: true,
        destructive: RISK.ask,
        onTask: 0.5,
      });
    }
  }
}

/** Programs whose whole purpose is to expose a local port to the internet. */
const TUNNEL_PROGRAMS = new Set([
  'ngrok',
  'cloudflared',
  'lt',
  'localtunnel',
  'bore',
  'chisel',
  'frpc',
  'frps',
  'zrok',
  'pinggy',
  'tunnelmole',
  'serveo',
  'inlets',
]);
/** Subcommands that publish a package or an image. */
const PUBLISH_WORDS = new Set(['publish', 'upload']);
/** Programs whose `push` sends an artefact to a registry. */
const ARTEFACT_PUSHERS = new Set(['docker', 'podman', 'buildah', 'helm', 'gem', 'crane', 'skopeo', 'oras']);

/** Principles 6 and 7 for any program: tunnels, publishing, package-source changes, remote installs. */
function judgeTunnelsAndSupply(scope: CommandScope): void {
  const { program, args } = scope.command;
  const operands = args.filter((arg) => !arg.startsWith('-'));
  const verb = operands[0] ?? '';
  // Principle 6: an editor's or a cloud's tunnel subcommand, or a tunnel program.
  if (
    TUNNEL_PROGRAMS.has(program) ||
    verb === 'tunnel' ||
    verb === 'funnel' ||
    (program === 'npx' && TUNNEL_PROGRAMS.has(verb))
  ) {
    scope.networkSink(`tunnel:${program}`);
    scope.add({ code: `net.tunnel:${program}`, exfil: RISK.askHigh, onTask: 0.3 });
  }
  // Principle 7: publishing is only on task when the task asks for it.
  const publishes =
    PUBLISH_WORDS.has(verb) ||
    (ARTEFACT_PUSHERS.has(program) && verb === 'push') ||
    (program === 'gh' && verb === 'release' && operands[1] === 'create');
  if (publishes) {
    scope.networkSink(`publish:${program}`);
    scope.add(
      taskMentions(scope.task, 'publish')
        ? { code: `supply.publish:${program}`, onTask: 0.85 }
        : { code: `supply.publish:${program}`, deny: RISK.askHigh, onTask: 0.1 },
    );
  }
  // Principle 7: changing where packages come from (`config set registry …`, `sources --add`),
  // or switching off the check of who serves them (`config set strict-ssl false`).
  const setting = configAssignment(operands);
  const sourceOption = args.find((arg) => SOURCE_SETTING.test(arg.split('=')[0]!) && arg.startsWith('-'));
  judgeTransportTrust(scope, setting);
  if (
    (setting !== undefined && SOURCE_SETTING.test(setting.key)) ||
    (verb === 'sources' && args.includes('--add'))
  ) {
    scope.add({ code: `supply.source-change:${program}`, deny: RISK.askHigh, onTask: 0.3 });
  } else if (sourceOption !== undefined) {
    const index = args.indexOf(sourceOption);
    const value = sourceOption.includes('=')
      ? sourceOption.slice(sourceOption.indexOf('=') + 1)
      : (args[index + 1] ?? '');
    const host = /^[a-z+]+:\/\/(?:[^@/\s]*@)?([^/:\s]+)/i.exec(value)?.[1];
    if (host !== undefined && !isDefaultRegistryHost(host) && !/^(localhost|127\.)/.test(host))
      scope.add({ code: `supply.foreign-source:${host}`, deny: RISK.askHigh, onTask: 0.3 });
  }
  // Principle 7: installing or running a module named by a remote path at a version
  // (`go install x@latest`, `go run x@latest`): code fetched now, that the project does not pin.
  if (
    program === 'go' &&
    (verb === 'install' || verb === 'run') &&
    operands.slice(1).some((operand) => operand.includes('@') && !operand.startsWith('.')) &&
    !taskMentions(scope.task, 'install')
  )
    scope.add({ code: `supply.remote-${verb}:go`, deny: RISK.ask, onTask: 0.3 });
}

/**
 * The setting a configuration command writes: `config set KEY VALUE`, `config KEY VALUE` (git),
 * `config --set KEY VALUE` (conda), `set KEY=VALUE` (npm). Reads, lists and unsets write none.
 */
function configAssignment(operands: readonly string[]): { key: string; value: string } | undefined {
  const config = operands.indexOf('config');
  if (config < 0 && operands[0] !== 'set') return undefined;
  let index = config < 0 ? 0 : config + 1;
  if (operands[index] === 'set' || operands[index] === 'add') index += 1;
  const key = operands[index];
  if (key === undefined || /^(get|list|ls|unset|delete|rm|edit|show|view)$/.test(key)) return undefined;
  const equals = key.indexOf('=');
  if (equals > 0) return { key: key.slice(0, equals), value: key.slice(equals + 1) };
  const value = operands[index + 1];
  return value === undefined ? undefined : { key, value };
}

/** Principle 7: a setting, option or switch of this command that weakens transport trust. */
function judgeTransportTrust(scope: CommandScope, setting: { key: string; value: string } | undefined): void {
  const { program, args } = scope.command;
  if (setting !== undefined && weakensTransportTrust(setting.key, setting.value)) {
    scope.add(transportTrustFinding(`${program}:${setting.key}`));
    return;
  }
  for (const [index, arg] of args.entries()) {
    const option = TRUST_OPTION.test(arg) ? args[index + 1] : undefined;
    // git's `-c http.sslVerify=false` sets a configuration value for one command.
    const gitSetting = program === 'git' && args[index - 1] === '-c' ? /^([^=]+)=(.*)$/.exec(arg) : null;
    if (
      isTransportTrustSwitch(arg) ||
      (option !== undefined && weakensTransportTrust(arg, option)) ||
      (gitSetting !== null && weakensTransportTrust(gitSetting[1]!, gitSetting[2]!))
    ) {
      scope.add(transportTrustFinding(`${program}:${arg}`));
      return;
    }
  }
}

/** Where an environment setting's findings go: a command's scope, or the analysis of an `export`. */
export type EnvironmentScope = Pick<CommandScope, 'add' | 'runShell' | 'secretSource'>;

/**
 * Principle 2: a command carried in an environment variable is code. One judgement for every
 * spelling of a setting: `NAME=value cmd`, `env NAME=value cmd` and `export NAME=value; cmd`.
 */
export function judgeEnvironment(scope: EnvironmentScope, name: string, value: string): void {
  if (environmentWeakensTransportTrust(name, value)) scope.add(transportTrustFinding(`$${name}`));
  const change = environmentChangeFinding(name, value);
  if (change !== undefined) scope.add(change);
  // Known command-holding variables, and any variable whose value is shaped like a command
  // (`BROWSER="sh -c …"`, `X="a | b"`): a program may run it.
  if (
    CODE_ENVIRONMENT.test(name) ||
    /(EDITOR|PAGER|BROWSER|TERMINAL|VIEWER)$/.test(name) ||
    COMMAND_SHAPED.test(value)
  ) {
    if (value === '' || isPlainDisplayCommand(value)) return;
    // Interpreter option variables load code only through their loading options.
    const optionVariable = /^(NODE_OPTIONS|PERL5OPT|RUBYOPT)$/.test(name);
    if (
      optionVariable &&
      !/(^|\s)(-r|--require|--import|--loader|--experimental-loader|-e|-M|--eval)\b/.test(value)
    )
      return;
    scope.add({ code: `code.environment:${name}`, uncertain: true, destructive: RISK.ask, onTask: 0.5 });
    if (!optionVariable) scope.runShell(value.replace(/^\s*\|\s*/, ''), `env:${name}`);
    return;
  }
  if (isSecretVariableName(name) && /\$\{?[A-Za-z_]/.test(value)) scope.secretSource(`$${name}`);
}

function judgeCodeArgument(scope: CommandScope, roled: RoledArgument): void {
  const value = roled.value;
  if (isPlainDisplayCommand(value)) return;
  // A debugger's `shell …`, an editor's `:!…`, a SQL client's `\!`: the rest is shell.
  const shell = value.replace(/^\s*(:?!|shell\s+|\\!|\|\s*)/, '').replace(/^exec=/, '');
  scope.add({ code: `code.in-option:${roled.via}`, uncertain: true, destructive: RISK.ask, onTask: 0.5 });
  if (COMMAND_SHAPED.test(value) || shell !== value) scope.runShell(shell, `option:${roled.via}`);
}

/**
 * Principle 1: a path any program reads that holds credentials, another user's files, or a
 * whole home directory (a harvest) is exposure, whatever the program.
 */
function judgeSensitiveRead(scope: CommandScope, raw: string): void {
  const finding = sensitiveReadFinding(raw, scope.cwd);
  if (finding === undefined) return;
  if (finding.exfil !== undefined && finding.exfil > RISK.ask)
    scope.secretSource(finding.code.slice(finding.code.indexOf(':') + 1));
  else if (finding.code.startsWith('secret.read') || finding.code.startsWith('secret.other-user'))
    scope.secretSource(finding.code.slice(finding.code.indexOf(':') + 1));
  scope.add(finding);
}

/**
 * Principle 1 for digest programs: the user's or the system's credentials opened only to hash or
 * count them are asked, not allowed. The project's own (`wc -l .env`) are its business.
 */
function judgeDigestedRead(scope: CommandScope, raw: string): void {
  const where = scope.path(raw).scope;
  if (where === 'workspace' || where === 'workspace-all' || where === 'temp') return;
  const finding = sensitiveReadFinding(raw, scope.cwd);
  if (finding === undefined || !finding.code.startsWith('secret.')) return;
  scope.add({
    code: `secret.digest:${finding.code.slice(finding.code.indexOf(':') + 1)}`,
    exfil: RISK.askLow,
    onTask: 0.4,
  });
}

/**
 * Principle 1, for every tool that names a path (a shell argument, Read, an MCP tool's `path`):
 * credentials, typed-secret histories, another user's files, and whole homes (a harvest).
 */
export function sensitiveReadFinding(raw: string, cwd: string | undefined): Finding | undefined {
  const path = classifyPath(raw, cwd);
  const where = path.normalised;
  const outside = path.scope === 'home' || path.scope === 'system' || path.scope === 'unknown';
  // A bare workspace name (`secret/`, `my/secret` given to a vault or cloud CLI) is a resource
  // name more often than a file; file-shaped credential names (`.env`, `id_rsa`, `*.pem`) count.
  const last = where.slice(where.lastIndexOf('/') + 1);
  if (!outside && !last.includes('.') && !last.startsWith('id_')) return undefined;
  if (isCredentialPath(where) || isCredentialPath(raw) || isPrivateHistory(where)) {
    const keyMaterial = isKeyMaterialPath(where) || isKeyMaterialPath(raw);
    return {
      code: `secret.read:${where}`,
      exfil: keyMaterial && outside ? RISK.deny : outside ? RISK.askHigh : RISK.askLow,
      onTask: outside ? 0.3 : 0.6,
    };
  }
  if (isOtherUsersFile(raw, cwd))
    return { code: `secret.other-user:${where}`, exfil: RISK.askHigh, onTask: 0.3 };
  if (where === '~' || where === '/' || /^\/(home|Users)(\/[^/]+)?$/.test(where) || where === '/root') {
    return { code: `secret.harvest-scope:${where}`, exfil: RISK.ask, onTask: 0.4 };
  }
  return undefined;
}

/** Shell and client histories and client password files hold typed secrets. */
function isPrivateHistory(path: string): boolean {
  return /(^|\/)\.[a-z_]*history$|(^|\/)\.(pgpass|my\.cnf|mylogin\.cnf|boto|s3cfg|vault-token|m2\/settings(-security)?\.xml|cargo\/credentials(\.toml)?|composer\/auth\.json)$/.test(
    path,
  );
}

/** Another user's home or root's: not the agent's to read. */
function isOtherUsersFile(raw: string, cwd: string | undefined): boolean {
  const home = /^\/(?:home|Users)\/([^/]+)/.exec(raw);
  if (raw.startsWith('/root/') || raw === '/root') return !(cwd ?? '').startsWith('/root');
  if (home === null) return false;
  const own = /^\/(?:home|Users)\/([^/]+)/.exec(cwd ?? '')?.[1];
  // Without a working directory the owner is unknown: only dot files (settings, histories, keys) count.
  if (own === undefined) return /^\/(?:home|Users)\/[^/]+\/\./.test(raw);
  return home[1] !== own;
}

/**
 * Principle 3/4: a glob that names credential files (`-name "*.pem"`, `--include=.env*`) given to
 * a program that reads contents collects secrets.
 */
function judgeCredentialGlobs(scope: CommandScope, args: readonly string[]): void {
  for (const arg of args) {
    if (!arg.includes('*')) continue;
    const pattern = arg.replace(/^--?[\w-]+=/, '');
    const sample = pattern.replace(/\*+/g, 'x');
    if (isCredentialPath(sample) || isKeyMaterialPath(sample)) {
      scope.secretSource(`glob:${pattern}`);
      scope.add({ code: `secret.harvest-glob:${pattern}`, exfil: RISK.askHigh, onTask: 0.3 });
    }
  }
}

const OPERATING_SYSTEM_PATH =
  /^\/(etc|usr|bin|sbin|lib|lib32|lib64|libx32|boot|dev|proc|sys|root|var|opt|System|Library|private\/etc|Applications)(\/|$)|^\/$/;

/**
 * Principle 1: a path written by an output option or a copy/install destination, judged by
 * where it points: persistence targets and system paths are harmful, the home is asked.
 */
function judgeWrittenPath(scope: CommandScope, roled: RoledArgument): void {
  const path = scope.path(roled.value);
  const where = path.normalised;
  if (path.scope === 'device-null' || roled.value === '-') return;
  const label = roled.via === '' ? 'operand' : roled.via;
  scope.wrote(where);
  const persistence = persistenceFinding(where, scope.task, `arg.write.${label}`);
  if (persistence !== undefined) {
    scope.add(persistence);
    return;
  }
  if (isCredentialPath(where) && persistenceKind(where) === undefined) {
    scope.add({ code: `arg.write.credential-file:${where}`, destructive: RISK.ask, onTask: 0.5 });
    return;
  }
  switch (path.scope) {
    case 'system':
      // The operating system's own directories are harmful to write; another absolute
      // directory (`/data`, `/srv/app`) is outside the workspace and asked.
      scope.add(
        OPERATING_SYSTEM_PATH.test(where)
          ? { code: `arg.write.system:${where}`, destructive: RISK.denyHigh, onTask: 0.2 }
          : { code: `arg.write.outside-workspace:${where}`, destructive: RISK.ask, onTask: 0.5 },
      );
      return;
    case 'home':
    case 'unknown':
      scope.add({ code: `arg.write.outside-workspace:${where}`, destructive: RISK.ask, onTask: 0.5 });
      return;
    default:
      return;
  }
}
