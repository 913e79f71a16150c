import { TEST_FILE } from '../check-weakening.js';
import { judgeFileRead } from '../file-read-judge.js';
import type { FindingFamily } from '../finding-catalogue.js';
import { literalOutput } from '../literal-output.js';
import { scopeSeverity } from '../path-scope.js';
import { persistenceFinding, persistenceKind } from '../persistence-target.js';
import { NETWORK_FETCHERS } from '../program-catalog.js';
import { RISK } from '../risk-scale.js';
import { isCredentialPath } from '../secret-source.js';
import type { CommandRule, CommandScope } from '../shell-command.js';
import { taskMentions } from '../task-scope.js';
import { OPTION_SPECS } from '../vocabulary/program-options.js';
import { hasFlag, parseArguments, parseOptions } from './option-parse.js';

/** Severity of destroying `target`; recursive removal of a directory tree is the broad case. */
export function deletionSeverity(
  scope: CommandScope,
  target: string,
  recursive: boolean,
): { severity: number; label: string } {
  const path = scope.path(target);
  if (!recursive) {
    // One file: a normal edit inside the workspace, serious outside it.
    const single =
      path.scope === 'workspace'
        ? RISK.routine
        : path.scope === 'workspace-all'
          ? RISK.askHigh
          : scopeSeverity(path.scope, false);
    return {
      severity: isCredentialPath(path.normalised) ? Math.max(single, RISK.deny) : single,
      label: path.normalised,
    };
  }
  // Principle 8: removing a generated directory (build output, dependencies, caches) is routine
  // cleanup when the task is about cleaning or rebuilding. Unasked, a whole directory may hold
  // what someone put there by hand (a patched dependency, a release being assembled): asked.
  const last = path.normalised.slice(path.normalised.lastIndexOf('/') + 1);
  if (path.scope === 'workspace' && GENERATED_DIRECTORIES.has(last) && taskAllowsCleanup(scope.task))
    return { severity: RISK.routine, label: path.normalised };
  return { severity: scopeSeverity(path.scope, path.namedByTask), label: path.normalised };
}

/** Directories every build or install recreates. */
const GENERATED_DIRECTORIES = new Set([
  'dist',
  'build',
  'out',
  'target',
  'node_modules',
  'coverage',
  '.next',
  '.nuxt',
  '.turbo',
  '.parcel-cache',
  '.cache',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.tox',
  '.gradle',
  '.eslintcache',
  '.svelte-kit',
  '.angular',
  'bin',
  'obj',
]);

function taskAllowsCleanup(task: string): boolean {
  return (
    taskMentions(task, 'delete') ||
    /\b(rebuild|reinstall|fresh (build|install)|from scratch|caches?)\b/i.test(task)
  );
}

/** Files a compiler, interpreter or merge tool leaves behind (`*.pyc`, `*.o`, `*.orig`). */
const GENERATED_FILE = /\.(pyc|pyo|o|obj|class|orig|rej|tsbuildinfo)$|^\.DS_Store$/;

/** A name (a directory or a file, or a `find -name` pattern for them) that a build regenerates. */
export function isGeneratedName(name: string): boolean {
  return GENERATED_DIRECTORIES.has(name) || GENERATED_FILE.test(name);
}

/**
 * Deleting a test removes a check the person relies on (`check-weakening.ts`): asked, whatever
 * spells the deletion. A whole test directory removed counts too.
 */
export function judgeTestDeletion(scope: CommandScope, operands: readonly string[]): void {
  // Only the project's tests: a scratch directory named `test` under /tmp checks nothing. A test
  // deleted with the code it tests (`old.ts` and `old.test.ts`) goes with its feature.
  const stem = (operand: string) =>
    operand
      .replace(/^.*\//, '')
      .replace(/^test_|[._-](test|spec)(?=\.)|_test(?=\.)/, '')
      .replace(/\.[^.]+$/, '');
  const deletedCode = new Set(operands.filter((operand) => !TEST_FILE.test(operand)).map(stem));
  const test = operands.find(
    (operand) =>
      scope.path(operand).scope === 'workspace' &&
      (TEST_FILE.test(operand) || /(^|\/)(tests?|__tests__|spec)\/?$/.test(operand)) &&
      !deletedCode.has(stem(operand)),
  );
  if (test !== undefined)
    scope.add({ code: `content.weakens-checks:test-deleted:${test}`, deny: RISK.askHigh, onTask: 0.2 });
}

const rm: CommandRule = (scope) => {
  const parsed = parseOptions(scope.command.args);
  const recursiveFlag = hasFlag(parsed, '-r', '-R', '--recursive');
  const force = hasFlag(parsed, '-f', '--force');
  if (hasFlag(parsed, '--help', '--version')) return;
  if (parsed.operands.length === 0) {
    // `xargs rm -rf` and friends: the targets come from input we cannot see.
    if (scope.command.input.kind === 'pipe' || scope.command.dynamicArgs.length > 0)
      scope.add({
        code: 'shell.rm.unknown-targets',
        destructive: recursiveFlag ? RISK.denyHigh : RISK.ask,
        uncertain: true,
      });
    return;
  }
  judgeTestDeletion(scope, parsed.operands);
  const kind = recursiveFlag ? (force ? 'recursive-force' : 'recursive') : force ? 'force' : 'file';
  for (const operand of parsed.operands) {
    if (judgeAgentControl(scope, scope.path(operand).normalised, 'shell.rm')) continue;
    const { severity, label } = deletionSeverity(scope, operand, recursiveFlag);
    // Without -f, rm stops at a write-protected file and asks on a terminal: a little less sure.
    const adjusted = recursiveFlag && !force ? severity * 0.9 : severity;
    scope.add({ code: `shell.rm.${kind}:${label}`, destructive: round(adjusted) });
  }
};

const shred: CommandRule = (scope) => {
  const parsed = parseOptions(scope.command.args, OPTION_SPECS.shred);
  const recursive = hasFlag(parsed, '-r', '-R', '--recursive');
  for (const operand of parsed.operands) {
    const path = scope.path(operand);
    // Overwriting one workspace file is irreversible but narrow; anything broader is a wipe.
    const severity =
      path.scope === 'workspace' && !recursive
        ? RISK.ask
        : Math.max(RISK.deny, scopeSeverity(path.scope, false));
    scope.add({ code: `shell.shred:${path.normalised}`, destructive: severity });
  }
  if (parsed.operands.length === 0) scope.add({ code: 'shell.shred', destructive: RISK.deny });
};

const truncate: CommandRule = (scope) => {
  const parsed = parseOptions(scope.command.args, OPTION_SPECS.truncate);
  for (const operand of parsed.operands) {
    const path = scope.path(operand);
    if (judgeAgentControl(scope, path.normalised, 'shell.truncate')) continue;
    const severity = path.scope === 'workspace' ? RISK.ask : scopeSeverity(path.scope, false);
    scope.add({ code: `shell.truncate:${path.normalised}`, destructive: severity });
  }
};

const dd: CommandRule = (scope) => {
  for (const arg of scope.command.args) {
    if (arg.startsWith('if=')) judgeFileRead(scope, arg.slice(3));
    if (!arg.startsWith('of=')) continue;
    const target = arg.slice(3);
    if (target.startsWith('/dev/') && !/^\/dev\/(null|stdout|stderr)$/.test(target))
      scope.add({ code: `shell.dd.device:${target}`, destructive: RISK.certain });
    else {
      const path = scope.path(target);
      scope.add({
        code: `shell.dd.overwrite:${path.normalised}`,
        destructive: path.scope === 'workspace' ? RISK.askLow : scopeSeverity(path.scope, false),
      });
    }
  }
};

const diskTool: CommandRule = (scope) => {
  const { program, args } = scope.command;
  if (args.some((arg) => arg === '--help' || arg === '--version' || arg === '-l' || arg === '--list')) return;
  scope.add({ code: `shell.disk:${program}`, destructive: RISK.certain });
};

/** chmod/chown/chgrp: recursive on broad places, or loosening system files. */
const permissions: CommandRule = (scope) => {
  const { program, args } = scope.command;
  // `chmod -x file`: a mode that takes permissions away starts with a dash, like an option.
  const dashMode = program === 'chmod' ? args.findIndex((arg) => /^-[rwxXst]+$/.test(arg)) : -1;
  const parsed = parseOptions(
    dashMode === -1 ? args : args.filter((_, index) => index !== dashMode),
    OPTION_SPECS.chmod,
  );
  const recursive = hasFlag(parsed, '-R', '--recursive');
  const targets = dashMode === -1 ? parsed.operands.slice(1) : parsed.operands;
  // The set-user-ID or set-group-ID bit makes a program run with its owner's rights, whoever starts
  // it: made on a copy of a shell or on a root-owned file, it is a way to root (privilege escalation).
  const mode = program !== 'chmod' ? '' : dashMode === -1 ? (parsed.operands[0] ?? '') : args[dashMode]!;
  // Symbolic `u+s`, `g=s`, `+s`; octal with the 4000 (set-user-ID) or 2000 (set-group-ID) bit.
  const setsId = /(^|,)[ugoa]*[+=][rwxXt]*s/.test(mode) || /^0?[2-7][0-7]{3}$/.test(mode);
  /^[ugoa]*[+=][rwxXt]*s/.test(mode) ||
    /(^|,)[ugoa]*[+=][^,]*s/.test(mode) ||
    (/^[0-7]?[2-7][0-7]{3}$/.test(mode) && /^[0-7]?[2367]/.test(mode.padStart(5, '0').slice(1)));
  for (const target of setsId ? targets : []) {
    const path = scope.path(target);
    scope.add({
      code: `shell.chmod.set-id:${path.normalised}`,
      destructive: path.scope === 'workspace' || path.scope === 'temp' ? RISK.askHigh : RISK.deny,
      onTask: 0.1,
    });
  }
  // Rights added for the owner or taken from others (`u+rwX,go-w`) expose nothing and lock nobody
  // out, however many files they reach.
  const onlyTightens =
    program === 'chmod' &&
    mode !== '' &&
    mode.split(',').every((clause) => {
      const parts = /^([ugoa]*)([-+=])[rwxXst]*$/.exec(clause);
      if (parts === null) return false;
      const who = parts[1] === '' ? 'a' : parts[1]!;
      return (parts[2] === '+' && /^u+$/.test(who)) || (parts[2] === '-' && /^[go]+$/.test(who));
    });
  for (const target of targets) {
    const path = scope.path(target);
    // A hook runs by its mode: `chmod -x` switches it off, `+x` on.
    if (judgeAgentControl(scope, path.normalised, `shell.${program}`)) continue;
    const inWorkspace = path.scope === 'workspace' || path.scope === 'workspace-all';
    let severity: number;
    if (path.scope === 'temp' || path.scope === 'device-null') severity = RISK.routine;
    else if (inWorkspace && onlyTightens) severity = RISK.routine;
    else if (path.scope === 'workspace') severity = recursive ? RISK.askLow : RISK.routine;
    else if (path.scope === 'workspace-all') severity = recursive ? RISK.askLow : RISK.routine;
    else severity = recursive ? RISK.denyHigh : RISK.deny;
    scope.add({
      code: `shell.${program}${recursive ? '.recursive' : ''}:${path.normalised}`,
      destructive: severity,
    });
  }
};

/** mv/cp/ln/install: overwriting or moving away things outside the workspace. */
const copyOrMove: CommandRule = (scope) => {
  const { program } = scope.command;
  const parsed = parseOptions(scope.command.args, OPTION_SPECS.cp);
  if (parsed.operands.length < 2) return;
  const destination = parsed.operands[parsed.operands.length - 1]!;
  const sources = parsed.operands.slice(0, -1);
  const target = scope.path(destination);
  if (destination === '/dev/null' && program === 'mv') {
    scope.add({ code: 'shell.mv.to-dev-null', destructive: RISK.deny });
    return;
  }
  if (judgePersistenceTarget(scope, target.normalised, `shell.${program}`)) return;
  // Copying an empty or endless device over a file empties or overwrites it (`cp /dev/null f`).
  if (program === 'cp' && sources.some((source) => /^\/dev\/(null|zero|u?random)$/.test(source))) {
    scope.add({
      code: `shell.cp.empties:${target.normalised}`,
      destructive: target.scope === 'workspace' ? RISK.ask : scopeSeverity(target.scope, false),
      onTask: 0.3,
    });
    return;
  }
  if (target.scope === 'system' || target.scope === 'home' || target.scope === 'unknown') {
    scope.add({
      code: `shell.${program}.outside-workspace:${target.normalised}`,
      destructive: target.scope === 'system' ? RISK.deny : RISK.ask,
      onTask: 0.5,
    });
  }
  for (const source of sources) {
    const path = scope.path(source);
    if (program === 'mv' && judgeAgentControl(scope, path.normalised, 'shell.mv.moves-away')) continue;
    if (
      program === 'mv' &&
      (path.scope === 'system' || path.scope === 'home' || path.scope === 'workspace-all')
    )
      scope.add({
        code: `shell.mv.moves-away:${path.normalised}`,
        // Moving the user's own file keeps it (elsewhere); moving system files breaks the system.
        destructive: path.scope === 'system' ? RISK.deny : RISK.ask,
        onTask: 0.5,
      });
    if (isCredentialPath(path.normalised)) {
      scope.add({ code: `secret.read:${path.normalised}`, exfil: RISK.ask, onTask: 0.3 });
      scope.secretSource(path.normalised);
    }
  }
};

/** Bytes a size such as `10M`, `900G` or `1.5TiB` stands for; NaN when it is not one. */
function sizeInBytes(size: string): number {
  const match = /^(\d+(?:\.\d+)?)([KMGTPE]?)(i?B)?$/i.exec(size);
  if (match === null) return Number.NaN;
  const power = ' KMGTPE'.indexOf(match[2]!.toUpperCase() || ' ');
  return Number(match[1]) * 1024 ** power;
}
/** A file this large fills a development machine's disk, and every service on it fails. */
const DISK_FILLING_BYTES = 10 * 1024 ** 3;

/** `fallocate -l SIZE FILE`, `truncate -s SIZE FILE`: a file of a given size, judged by size and place. */
const sizedFile: CommandRule = (scope) => {
  const { program, args } = scope.command;
  const sizeAt = args.findIndex(
    (arg) => arg === '-l' || arg === '--length' || arg === '-s' || arg === '--size',
  );
  const size = sizeAt === -1 ? undefined : args[sizeAt + 1];
  if (size !== undefined && sizeInBytes(size.replace(/^\+/, '')) >= DISK_FILLING_BYTES)
    scope.add({ code: `shell.${program}.fills-disk:${size}`, destructive: RISK.deny, onTask: 0.1 });
  if (program === 'truncate') return truncate(scope);
  for (const operand of args.filter((arg, index) => !arg.startsWith('-') && index !== sizeAt + 1)) {
    const path = scope.path(operand);
    if (judgePersistenceTarget(scope, path.normalised, `shell.${program}`)) continue;
    if (path.scope === 'system')
      scope.add({ code: `shell.${program}.system:${path.normalised}`, destructive: RISK.deny, onTask: 0.3 });
  }
};

/** Programs that only create: judged by where they create (persistence, system places). */
const creating: CommandRule = (scope) => {
  // `touch -d 2020-01-01 file`, `-t`, `-r ref`: a backdated file hides when it changed.
  if (
    scope.command.program === 'touch' &&
    scope.command.args.some((arg) => /^(-[dtr]|--date|--reference)(=|$)/.test(arg))
  )
    scope.add({ code: 'tamper.touch-times', destructive: RISK.askLow, uncertain: true, onTask: 0.3 });
  const parsed = parseOptions(scope.command.args, OPTION_SPECS.mkdir);
  for (const operand of parsed.operands) {
    const path = scope.path(operand);
    if (judgePersistenceTarget(scope, path.normalised, `shell.${scope.command.program}`)) continue;
    if (path.scope === 'system')
      scope.add({
        code: `shell.${scope.command.program}.system:${path.normalised}`,
        destructive: RISK.askLow,
        onTask: 0.5,
      });
  }
};

/**
 * `mktemp` makes a fresh, empty file or directory (in the temporary directory unless told another
 * place) and prints its path: harmless, except as a creation in the place it is told.
 */
const mktemp: CommandRule = (scope) => {
  const args = scope.command.args;
  const places = args.flatMap((arg, index) => {
    if (arg === '-p' || arg === '--tmpdir') return [args[index + 1] ?? ''];
    if (arg.startsWith('--tmpdir=')) return [arg.slice('--tmpdir='.length)];
    return !arg.startsWith('-') && arg.includes('/') && args[index - 1] !== '-p' ? [arg] : [];
  });
  for (const place of places) {
    const path = scope.path(place);
    if (path.scope === 'system')
      scope.add({ code: `shell.mktemp.system:${path.normalised}`, destructive: RISK.askLow, onTask: 0.5 });
  }
};

/** Readers: reading a credential file is a secret source; the read itself is harmless. */
export const readFiles: CommandRule = (scope) => {
  for (const operand of parseOptions(scope.command.args).operands) judgeFileRead(scope, operand);
};

const tee: CommandRule = (scope) => {
  const parsed = parseOptions(scope.command.args);
  const text = literalOutput(scope.command);
  for (const operand of parsed.operands) {
    const path = scope.path(operand);
    if (text !== undefined) scope.wroteText(path.normalised, text);
    if (judgePersistenceTarget(scope, path.normalised, 'shell.tee')) continue;
    if (path.scope === 'system' || path.scope === 'home' || path.scope === 'unknown')
      scope.add({
        code: `shell.tee.outside-workspace:${path.normalised}`,
        destructive: path.scope === 'system' ? RISK.deny : RISK.ask,
        onTask: 0.5,
      });
  }
};

/** An `e command` of a sed script, after an optional line, `$` or /regex/ address. */
const SED_EXECUTE = /(?:^|[;\n{}])\s*(?:\d+|\$|\/(?:[^/\\]|\\.)*\/)?\s*e\s+([^;\n}]+)/g;

const sed: CommandRule = (scope) => {
  const read = parseArguments(scope.command.args, OPTION_SPECS.sed);
  const parsed = parseOptions(scope.command.args, OPTION_SPECS.sed);
  const inPlace = parsed.flags.some((flag) => flag === '-i' || flag.startsWith('--in-place'));
  // The scripts: every `-e` (`-e s`, `-es`, `--expression=s`), else the first operand unless `-f`
  // names a script file.
  const scripts = read.options
    .filter(
      (option) => (option.name === '-e' || option.name === '--expression') && option.value !== undefined,
    )
    .map((option) => option.value!);
  const scriptOperand = scripts.length === 0 && !hasFlag(parsed, '-f', '--file');
  const programs = scriptOperand ? parsed.operands.slice(0, 1) : scripts;
  const files = parsed.operands.slice(scriptOperand ? 1 : 0);
  // GNU sed's `e` command and `w` to a file run commands or write elsewhere. The command of an
  // `e` (after an optional address: `1e cmd`, `$e cmd`, `/re/e cmd`) is shell and is analysed.
  for (const program of programs) {
    if (!/(^|[;\n{}])\s*[\d$]*\s*e\s|\/e\s*$|\/w\s+\/|\/\s*e\s+\S/.test(program)) continue;
    scope.add({ code: 'shell.sed.executes-or-writes', uncertain: true, destructive: RISK.askLow });
    for (const match of program.matchAll(SED_EXECUTE)) scope.runShell(match[1]!.trim(), 'sed-e');
  }
  if (!inPlace) return readFiles(scope);
  // Principle 5: an in-place substitution is an edit; what it removes and inserts is judged as an
  // Edit of the file would be (`s/requireAuth(),//` drops a check).
  const edits = substitutionsOf(programs);
  // A script that deletes every line, or replaces each whole line with nothing, empties the file.
  const scriptText = programs.join(';');
  const empties =
    /^\s*(1\s*,\s*\$\s*)?d\s*$/.test(scriptText) ||
    edits.some((edit) => edit.inserted === '' && /^\^?\.[*+]\$?$|^\^?\.\\\+\$?$/.test(edit.removed));
  if (empties)
    for (const operand of files)
      scope.add({
        code: `shell.sed.empties:${scope.path(operand).normalised}`,
        destructive: RISK.ask,
        onTask: 0.3,
      });
  for (const operand of files) {
    const path = scope.path(operand);
    for (const edit of edits) scope.wroteText(path.normalised, edit.inserted, edit.removed);
    // An edit in place is a write: a hook, a start-up file or the agent's settings changed so.
    if (judgePersistenceTarget(scope, path.normalised, 'shell.sed.in-place')) continue;
    if (path.scope === 'system' || path.scope === 'home' || path.scope === 'unknown')
      scope.add({
        code: `shell.sed.in-place-outside-workspace:${path.normalised}`,
        destructive: path.scope === 'system' ? RISK.deny : RISK.ask,
        onTask: 0.5,
      });
    else if (path.scope === 'workspace-all')
      scope.add({ code: 'shell.sed.in-place-everything', destructive: RISK.askLow });
  }
};

/**
 * The `s` commands of sed scripts, as the text each removes (its pattern, with regular-expression
 * escapes taken off) and inserts (its replacement). Any delimiter; `\n` in a replacement is a line.
 */
function substitutionsOf(scripts: readonly string[]): { removed: string; inserted: string }[] {
  const edits: { removed: string; inserted: string }[] = [];
  for (const script of scripts)
    for (const match of script.matchAll(/(?:^|[;\n{}])\s*(?:\d+|\$|\/(?:[^/\\]|\\.)*\/)?\s*s(.)/g)) {
      const delimiter = match[1]!;
      const parts: string[] = [];
      let current = '';
      let index = match.index! + match[0].length;
      for (; index < script.length && parts.length < 2; index++) {
        const character = script[index]!;
        if (character === '\\' && index + 1 < script.length) {
          current += script[index + 1] === delimiter ? delimiter : `\\${script[index + 1]}`;
          index++;
        } else if (character === delimiter) {
          parts.push(current);
          current = '';
        } else current += character;
      }
      if (parts.length < 2) continue;
      edits.push({
        removed: parts[0]!.replace(/\\([.*+?^${}()|[\]\\/])/g, '$1'),
        inserted: parts[1]!.replace(/\\n/g, '\n').replace(/\\([&\\/])/g, '$1'),
      });
    }
  return edits;
}

const awk: CommandRule = (scope) => {
  const program = scope.command.args.find((arg) => !arg.startsWith('-'));
  // gawk's `/inet/tcp/…` and `/inet/udp/…` special files are sockets, as bash's `/dev/tcp` is.
  if (program !== undefined && /\/inet[46]?\/(tcp|udp)\//.test(program)) {
    scope.networkSink('awk-inet');
    scope.add({ code: 'net.awk-socket', exfil: RISK.denyHigh, onTask: 0.02 });
  }
  if (program !== undefined && /\bsystem\s*\(|\|\s*getline|print[^;]*>\s*"|\|\s*"/.test(program)) {
    const command = /system\s*\(\s*"([^"]*)"/.exec(program)?.[1];
    if (command !== undefined) scope.runShell(command, 'awk-system');
    else scope.add({ code: 'shell.awk.runs-commands', uncertain: true, destructive: RISK.askLow });
  }
  readFiles(scope);
};

/**
 * The agent's own controls (its settings and hook scripts): removing one, moving it away,
 * emptying it or changing its mode changes what watches the agent, and is judged as a write to it
 * (persistence-target.ts). True when `path` is one.
 */
function judgeAgentControl(
  scope: CommandScope,
  path: string,
  codePrefix: `${FindingFamily}.${string}`,
): boolean {
  const kind = persistenceKind(path);
  if (kind !== 'agent-settings' && kind !== 'agent-hook') return false;
  return judgePersistenceTarget(scope, path, codePrefix);
}

/** Adds the persistence finding for a write to `path`; true when there was one. */
function judgePersistenceTarget(
  scope: CommandScope,
  path: string,
  codePrefix: `${FindingFamily}.${string}`,
): boolean {
  const finding = persistenceFinding(path, scope.task, codePrefix);
  if (finding === undefined) return false;
  scope.add(finding);
  return true;
}

const round = (value: number): number => Math.round(value * 100) / 100;

export const FILE_SYSTEM_RULES: ReadonlyMap<string, CommandRule> = new Map<string, CommandRule>([
  ['rm', rm],
  ['unlink', rm],
  [
    'rmdir',
    (scope) => {
      for (const operand of parseOptions(scope.command.args).operands) {
        const path = scope.path(operand);
        scope.add({
          code: `shell.rmdir:${path.normalised}`,
          destructive:
            path.scope === 'workspace'
              ? RISK.routine
              : Math.min(RISK.askHigh, scopeSeverity(path.scope, false)),
        });
      }
    },
  ],
  ['shred', shred],
  ['srm', shred],
  ['wipe', shred],
  ['truncate', sizedFile],
  ['dd', dd],
  ['mkfs', diskTool],
  ['wipefs', diskTool],
  ['fdisk', diskTool],
  ['sfdisk', diskTool],
  ['parted', diskTool],
  ['sgdisk', diskTool],
  ['gdisk', diskTool],
  ['mkswap', diskTool],
  ['blkdiscard', diskTool],
  ['hdparm', diskTool],
  ['cryptsetup', diskTool],
  ['chmod', permissions],
  ['chown', permissions],
  ['chgrp', permissions],
  ['chattr', permissions],
  ['setfacl', permissions],
  ['mv', copyOrMove],
  ['cp', copyOrMove],
  ['ln', copyOrMove],
  ['install', copyOrMove],
  ['fallocate', sizedFile],
  ['mkdir', creating],
  ['mkfifo', creating],
  ['touch', creating],
  ['mktemp', mktemp],
  ['tee', tee],
  ['sed', sed],
  ['awk', awk],
  ['gawk', awk],
  ['mawk', awk],
  ['cat', readFiles],
  ['less', readFiles],
  ['more', readFiles],
  ['head', readFiles],
  ['tail', readFiles],
  ['bat', readFiles],
  ['grep', readFiles],
  ['strings', readFiles],
  ['base64', readFiles],
  ['xxd', readFiles],
  ['zip', readFiles],
  [
    'tar',
    (scope) => {
      const args = scope.command.args;
      const extractTo = args.findIndex((arg) => arg === '-C' || arg === '--directory');
      if (extractTo >= 0 && args[extractTo + 1] !== undefined) {
        const path = scope.path(args[extractTo + 1]!);
        if (path.scope === 'system' || path.scope === 'home')
          scope.add({
            code: `shell.tar.outside-workspace:${path.normalised}`,
            destructive: RISK.ask,
            onTask: 0.5,
          });
      }
      // Principle 2: an archive that came from the network in this call writes files nobody has
      // read, under paths nobody knows: whatever the call runs from there is unread code.
      const extracting =
        /^-?[A-Za-wyz]*x/.test(args[0] ?? '') || args.includes('--extract') || args.includes('-x');
      // `-f FILE`, `--file FILE`, or a bundle ending in f (`-xzf FILE`, or `xzf FILE` first).
      const file = args.findIndex(
        (arg, index) =>
          arg === '--file' || /^-[A-Za-z]*f$/.test(arg) || (index === 0 && /^[A-Za-z]*f$/.test(arg)),
      );
      const archive = file >= 0 ? args[file + 1] : undefined;
      const input = scope.command.input;
      const downloaded =
        (input.kind === 'pipe' && NETWORK_FETCHERS.has(input.from.program)) ||
        (archive !== undefined && archive !== '-' && scope.written(scope.path(archive).normalised));
      if (extracting && downloaded)
        scope.wrote(scope.path(extractTo >= 0 ? (args[extractTo + 1] ?? '.') : '.').normalised);
      readFiles(scope);
    },
  ],
]);

export function mkfsFamily(program: string): boolean {
  return /^mkfs\.|^mke2fs$|^newfs/.test(program);
}
