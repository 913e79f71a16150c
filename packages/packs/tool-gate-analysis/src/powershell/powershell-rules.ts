import type { Node } from 'web-tree-sitter';
import { RISK } from '../risk-scale.js';
import { AUTORUN_KEY, WINDOWS_PROGRAM_RULES } from '../rules/windows-program-rules.js';
import type { CommandRule, CommandScope } from '../shell-command.js';
import { parsePowerShell } from './powershell-parser.js';
import { posixFromWindows } from './windows-path.js';

/**
 * Issue 27, Windows shells: PowerShell and `cmd` judged by the same principles and argument roles
 * as POSIX shells. Each cmdlet is mapped to the POSIX command that does the same thing
 * (`Remove-Item -Recurse` is `rm -r`, `Get-Content` is `cat`, `Invoke-WebRequest -InFile` is an
 * upload) and judged by that command's rule, with Windows paths put in the shape those rules read
 * (`windows-path.ts`). Native programs (`dotnet`, `git`, `npm`) are judged as they are on any
 * system. What has no mapping is not understood: asked.
 */

/** Cmdlets and aliases that only read or shape what is piped to them. */
const READ_ONLY_CMDLETS = new Set([
  'get-childitem',
  'gci',
  'ls',
  'dir',
  'select-string',
  'sls',
  'select-object',
  'select',
  'sort-object',
  'sort',
  'where-object',
  'where',
  '?',
  'foreach-object',
  'foreach',
  '%',
  'measure-object',
  'measure',
  'get-process',
  'gps',
  'ps',
  'get-service',
  'gsv',
  'get-location',
  'gl',
  'pwd',
  'test-path',
  'resolve-path',
  'rvpa',
  'format-table',
  'ft',
  'format-list',
  'fl',
  'format-wide',
  'out-string',
  'write-output',
  'echo',
  'write',
  'write-host',
  'get-date',
  'get-command',
  'gcm',
  'get-help',
  'help',
  'get-item',
  'gi',
  'split-path',
  'join-path',
  'convertto-json',
  'convertfrom-json',
  'compare-object',
  'group-object',
  'get-filehash',
  'get-member',
  'gm',
  'set-location',
  'cd',
  'sl',
  'push-location',
  'pop-location',
  'get-variable',
  'out-host',
  'out-null',
  'get-psdrive',
  'get-module',
  'get-hotfix',
  'get-computerinfo',
  'get-uptime',
  'start-sleep',
  'sleep',
  'get-unique',
  'tee-object',
  'convertto-csv',
  'convertfrom-csv',
  'get-random',
  'select-xml',
  'get-itemproperty',
  'gp',
  'get-acl',
  'get-history',
  'get-host',
  'clear-host',
  'cls',
]);

const REMOVE = new Set(['remove-item', 'rm', 'del', 'erase', 'rd', 'ri', 'rmdir']);
const READ_CONTENT = new Set(['get-content', 'gc', 'cat', 'type']);
const WRITE_CONTENT = new Set(['set-content', 'sc', 'add-content', 'ac', 'out-file']);
const WEB = new Set(['invoke-webrequest', 'iwr', 'invoke-restmethod', 'irm', 'curl', 'wget']);
const EXPRESSION = new Set(['invoke-expression', 'iex']);
const START = new Set(['start-process', 'saps', 'start']);
const COPY_MOVE = new Map([
  ['copy-item', 'cp'],
  ['copy', 'cp'],
  ['cpi', 'cp'],
  ['move-item', 'mv'],
  ['move', 'mv'],
  ['mi', 'mv'],
]);
/** Approved verbs that only retrieve. */
const READ_VERB = /^(get|test|measure|find|resolve|compare|search|select)-[a-z]+$/;
/** Nouns of what a reader must not print: secrets, credentials, keys, tokens, what was typed or copied. */
const SECRET_NOUN =
  /-\w*(secret|credential|password|token|key|vault|cert|clipboard|history|psreadline|bitlocker|recovery|dpapi)\w*$/;
const WEB_CALL =
  /\b(iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloadfile|net\.webclient|curl|wget|start-bitstransfer)\b|https?:\/\//i;

interface Invocation {
  name: string;
  /** Arguments as written, quotes removed, arrays split (`bin, obj` is two). */
  args: string[];
  text: string;
}

function unquote(text: string): string {
  const trimmed = text.trim();
  if (/^'.*'$/s.test(trimmed)) return trimmed.slice(1, -1).replace(/''/g, "'");
  if (/^".*"$/s.test(trimmed)) return trimmed.slice(1, -1).replace(/`"/g, '"');
  return trimmed;
}

function invocationOf(node: Node): Invocation | undefined {
  const name = node.childForFieldName('command_name');
  if (name === null) return undefined;
  const elements = node.childForFieldName('command_elements');
  const args: string[] = [];
  for (const element of elements?.namedChildren ?? []) {
    if (element === null || element.type === 'command_argument_sep') continue;
    // `'bin', 'obj'` is an array: each element is an argument.
    const parts =
      element.type === 'array_literal_expression' && element.namedChildren.length > 1
        ? element.namedChildren.filter((part) => part !== null).map((part) => part.text)
        : [element.text];
    for (const part of parts) if (part.trim() !== '') args.push(unquote(part));
  }
  return { name: unquote(name.text), args, text: node.text };
}

/** A named parameter's value (PowerShell accepts any unambiguous prefix: `-Rec` is `-Recurse`). */
function parameter(
  args: readonly string[],
  name: string,
  minimum = 2,
  /** The value may itself start with a dash (`-ArgumentList '-c …'`). */
  anyValue = false,
): { present: boolean; value?: string } {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!.toLowerCase();
    if (!arg.startsWith('-')) continue;
    const [flag, attached] = arg.slice(1).split(':', 2) as [string, string | undefined];
    if (flag.length >= minimum && name.toLowerCase().startsWith(flag)) {
      const next = args[index + 1];
      return {
        present: true,
        value: attached ?? (next !== undefined && (anyValue || !next.startsWith('-')) ? next : undefined),
      };
    }
  }
  return { present: false };
}

/** Positional arguments: those not naming a parameter nor given as one's value. */
function positionals(args: readonly string[], valued: readonly string[]): string[] {
  const result: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg.startsWith('-')) {
      const flag = arg.slice(1).split(':')[0]!.toLowerCase();
      if (
        !arg.includes(':') &&
        valued.some((name) => flag.length >= 2 && name.toLowerCase().startsWith(flag))
      )
        index++;
      continue;
    }
    result.push(arg);
  }
  return result;
}

function judgeInvocation(scope: CommandScope, call: Invocation, pipelineText: string): void {
  const name = call.name.toLowerCase().replace(/\.exe$/, '');
  const path = (raw: string) => posixFromWindows(raw, scope.cwd);
  const { args } = call;
  if (READ_ONLY_CMDLETS.has(name)) return;
  if (REMOVE.has(name)) {
    const targets = [
      ...positionals(args, ['Path', 'LiteralPath', 'Filter', 'Include', 'Exclude']),
      ...[parameter(args, 'Path', 1).value, parameter(args, 'LiteralPath', 2).value].filter(
        (value) => value !== undefined,
      ),
    ].map(path);
    // A piped remove deletes whatever the pipeline found: the target is not known.
    if (targets.length === 0) {
      scope.add({ code: 'ps.remove-item.piped', destructive: RISK.ask, uncertain: true, onTask: 0.4 });
      return;
    }
    const recurse = parameter(args, 'Recurse').present || /^(rd|rmdir)$/.test(name);
    scope.runArgv(['rm', recurse ? '-rf' : '-f', ...targets], 'powershell');
    return;
  }
  if (READ_CONTENT.has(name)) {
    const targets = [
      ...positionals(args, [
        'Path',
        'LiteralPath',
        'TotalCount',
        'Tail',
        'Encoding',
        'Head',
        'First',
        'Last',
      ]),
      parameter(args, 'Path', 1).value,
    ].filter((value): value is string => value !== undefined);
    scope.runArgv(['cat', ...targets.map(path)], 'powershell');
    return;
  }
  if (WRITE_CONTENT.has(name)) {
    const target =
      parameter(args, 'Path', 1).value ??
      parameter(args, 'FilePath', 1).value ??
      positionals(args, ['Value', 'Encoding', 'Path', 'FilePath'])[0];
    if (target === undefined) {
      scope.add({ code: `ps.${name}.unknown-target`, uncertain: true, destructive: RISK.askLow });
      return;
    }
    const value = parameter(args, 'Value').value ?? '';
    scope.wroteText(path(target), value);
    scope.runArgv(['tee', path(target)], 'powershell');
    return;
  }
  const copyOrMove = COPY_MOVE.get(name);
  if (copyOrMove !== undefined) {
    const operands = positionals(args, ['Path', 'Destination', 'LiteralPath']);
    const source = parameter(args, 'Path', 1).value ?? operands[0];
    const destination = parameter(args, 'Destination').value ?? operands[operands.length - 1];
    if (source === undefined || destination === undefined || source === destination) {
      scope.add({ code: `ps.${name}.operands`, uncertain: true });
      return;
    }
    scope.runArgv([copyOrMove, '-r', path(source), path(destination)], 'powershell');
    return;
  }
  if (WEB.has(name)) {
    const url =
      parameter(args, 'Uri', 1).value ??
      positionals(args, [
        'Uri',
        'Method',
        'InFile',
        'OutFile',
        'Body',
        'Headers',
        'ContentType',
        'UserAgent',
      ])[0];
    const argv = ['curl', '-s'];
    const method = parameter(args, 'Method').value;
    if (method !== undefined) argv.push('-X', method.toUpperCase());
    const inFile = parameter(args, 'InFile').value;
    if (inFile !== undefined) argv.push('--data-binary', `@${path(inFile)}`);
    const body = parameter(args, 'Body').value;
    if (body !== undefined) argv.push('--data', body.replace(/\$env:(\w+)/gi, '$$$1'));
    const outFile = parameter(args, 'OutFile').value;
    if (outFile !== undefined) argv.push('-o', path(outFile));
    if (url !== undefined) argv.push(url);
    scope.runArgv(argv, 'powershell');
    return;
  }
  if (EXPRESSION.has(name)) {
    const code = args.join(' ');
    if (
      WEB_CALL.test(code) ||
      WEB_CALL.test(pipelineText.slice(0, pipelineText.toLowerCase().lastIndexOf(name)))
    )
      scope.add({ code: 'shell.remote-script:powershell', destructive: RISK.deny, onTask: 0.05 });
    else if (args.length === 1 && !/[$(]/.test(args[0]!)) judgePowerShell(scope, args[0]!);
    else
      scope.add({
        code: 'ps.invoke-expression.dynamic',
        uncertain: true,
        destructive: RISK.ask,
        onTask: 0.3,
      });
    return;
  }
  if (START.has(name)) {
    const program =
      parameter(args, 'FilePath', 1).value ??
      positionals(args, ['FilePath', 'ArgumentList', 'Verb', 'WorkingDirectory', 'WindowStyle'])[0];
    const argumentList = parameter(args, 'ArgumentList', 2, true).value ?? '';
    if (/^runas$/i.test(parameter(args, 'Verb').value ?? ''))
      scope.add({
        code: 'ps.start-process.elevated',
        destructive: RISK.askHigh,
        uncertain: true,
        onTask: 0.2,
      });
    if (program === undefined) {
      scope.add({ code: 'ps.start-process.unknown-program', uncertain: true });
      return;
    }
    judgeNative(scope, [program, ...argumentList.split(/\s+/).filter(Boolean)]);
    return;
  }
  if (name === 'set-executionpolicy') {
    const scopeName = (parameter(args, 'Scope').value ?? 'LocalMachine').toLowerCase();
    const policy = (
      parameter(args, 'ExecutionPolicy').value ??
      positionals(args, ['Scope', 'ExecutionPolicy'])[0] ??
      ''
    ).toLowerCase();
    const loose = /^(unrestricted|bypass)$/.test(policy);
    scope.add(
      scopeName === 'process'
        ? { code: `ps.execution-policy:process:${policy}`, destructive: RISK.routine, onTask: 0.8 }
        : {
            code: `ps.execution-policy:${scopeName}:${policy}`,
            deny: loose ? RISK.deny : RISK.askHigh,
            onTask: 0.2,
          },
    );
    return;
  }
  if (/^(new|set)-item(property)?$|^(ni|si|sp)$/.test(name) && AUTORUN_KEY.test(call.text)) {
    scope.add({ code: 'shell.persistence:windows-run-key', deny: RISK.deny, onTask: 0.05 });
    return;
  }
  if (/^(register-scheduledtask|new-scheduledtask\w*|new-service|set-service)$/.test(name)) {
    scope.add({ code: `shell.persistence:windows-${name}`, deny: RISK.deny, onTask: 0.05 });
    return;
  }
  if (name === 'new-item' || name === 'ni' || name === 'mkdir' || name === 'md') {
    const target =
      parameter(args, 'Path', 1).value ?? positionals(args, ['Path', 'ItemType', 'Name', 'Value'])[0];
    if (target !== undefined) scope.runArgv(['mkdir', '-p', path(target)], 'powershell');
    return;
  }
  if (READ_VERB.test(name)) {
    // PowerShell's approved verbs are a contract (about_Approved_Verbs): Get, Test, Measure, Find,
    // Resolve, Compare, Search and Select retrieve and change nothing. What an unmapped reader can
    // do wrong is print a secret into the transcript, and its noun says when it reads one.
    if (SECRET_NOUN.test(name))
      scope.add({ code: `ps.reads-secret:${name.slice(0, 40)}`, exfil: RISK.ask, onTask: 0.4 });
    return;
  }
  if (/^[a-z]+-[a-z]+$/.test(name)) {
    // A cmdlet the gate has no mapping for: its verb may say harm, never enough to allow.
    const harmful = /^(remove|clear|stop|uninstall|disable|reset|unregister|format|dismount|restart)-/.test(
      name,
    );
    scope.add({
      code: `ps.unknown-cmdlet:${name.slice(0, 40)}`,
      uncertain: true,
      ...(harmful ? { destructive: RISK.ask } : {}),
      onTask: 0.5,
    });
    return;
  }
  judgeNative(scope, [call.name, ...args]);
}

/** A native program: `powershell`/`cmd` nested, Windows tools by their own rules, the rest as argv. */
function judgeNative(scope: CommandScope, argv: string[]): void {
  const program = argv[0]!
    .replace(/^.*[\\/]/, '')
    .toLowerCase()
    .replace(/\.exe$/, '');
  const args = argv.slice(1);
  // Windows system programs (`reg`, `schtasks`, `netsh`) have rules of their own in the table
  // (rules/windows-program-rules.ts), shared with a host's shell tool on Windows.
  if (WINDOWS_PROGRAM_RULES.has(program)) {
    scope.runArgv([program, ...args], 'windows');
    return;
  }
  scope.runArgv([argv[0]!.replace(/\.exe$/i, ''), ...args], 'windows');
}

/** Judges a PowerShell script: every command in it, pipelines and script blocks included. */
export function judgePowerShell(scope: CommandScope, script: string): void {
  let parse = parsePowerShell(script);
  // The grammar does not read a list of bare words (`Remove-Item bin, obj`) though PowerShell
  // does; the same list quoted (`'bin', 'obj'`) means the same and parses.
  if (parse.ok && parse.hasError) {
    const quoted = script.replace(/(?<=\s)[\w.\\/:*-]+(?:\s*,\s*[\w.\\/:*-]+)+(?=\s|$)/g, (list) =>
      list
        .split(',')
        .map((word) => `'${word.trim()}'`)
        .join(', '),
    );
    if (quoted !== script) {
      const retry = parsePowerShell(quoted);
      if (retry.ok && !retry.hasError) {
        parse.release();
        parse = retry;
      } else if (retry.ok) retry.release();
    }
  }
  if (!parse.ok) {
    scope.add({ code: `shell.powershell.${parse.reason}`, uncertain: true });
    return;
  }
  try {
    if (parse.hasError) scope.add({ code: 'shell.powershell.parse-error', uncertain: true });
    const visit = (node: Node, pipeline: string): void => {
      const text = node.type === 'pipeline' ? node.text : pipeline;
      if (node.type === 'command') {
        const call = invocationOf(node);
        if (call === undefined) scope.add({ code: 'shell.powershell.dynamic-command', uncertain: true });
        else judgeInvocation(scope, call, text);
      }
      if (node.type === 'invokation_expression') judgeMethodCall(scope, node);
      for (const child of node.namedChildren) if (child !== null) visit(child, text);
    };
    visit(parse.root, script);
  } finally {
    parse.release();
  }
}

/**
 * .NET methods that only compute a value from their arguments or read the clock: strings, paths,
 * numbers, collections in memory. Called on anything, they change nothing outside the script.
 */
const PURE_METHOD =
  /^(ToString|Trim|TrimStart|TrimEnd|Split|Replace|Substring|ToLower|ToLowerInvariant|ToUpper|ToUpperInvariant|Contains|StartsWith|EndsWith|IndexOf|LastIndexOf|PadLeft|PadRight|Join|Format|Concat|Equals|CompareTo|GetHashCode|GetType|Combine|GetFileName|GetFileNameWithoutExtension|GetExtension|GetDirectoryName|GetFullPath|GetRelativePath|ChangeExtension|IsPathRooted|Round|Floor|Ceiling|Abs|Max|Min|Pow|Sqrt|Parse|TryParse|IsNullOrEmpty|IsNullOrWhiteSpace|NewGuid|ToArray|ToList|Add|AddDays|AddHours|AddMinutes|AddSeconds|Sort|Reverse|Where|ForEach|Count|Keys|Values|ContainsKey|GetEnumerator|Normalize|ToBase64String|FromBase64String|GetString|GetBytes|Now|UtcNow|Today)$/i;

/**
 * A .NET method called from PowerShell (`[Environment]::SetEnvironmentVariable(…)`,
 * `$client.DownloadFile(…)`, `(Get-Item x).Delete()`) reaches past the cmdlets: it may write the
 * registry, the user's environment, files or the network. Only methods that compute a value are
 * understood; any other is not (issue 27, "understood or ask").
 */
function judgeMethodCall(scope: CommandScope, node: Node): void {
  const member = node.namedChildren.find((child) => child?.type === 'member_name');
  const method = member?.text ?? '';
  if (PURE_METHOD.test(method)) return;
  const target = node.namedChildren[0]?.text ?? '';
  scope.add({
    code: `ps.unknown-method:${`${target}.${method}`.replace(/\s+/g, '').slice(0, 60)}`,
    uncertain: true,
    onTask: 0.5,
  });
}

/** `cmd /c …`: its own built-ins mapped to POSIX commands, anything else as a program. */
export function judgeCmd(scope: CommandScope, line: string): void {
  for (const segment of line.split(/&&|\|\||[&|]/)) {
    const words = segment.match(/"[^"]*"|\S+/g)?.map((word) => word.replace(/^"|"$/g, '')) ?? [];
    if (words.length === 0) continue;
    const [first, ...rest] = words as [string, ...string[]];
    const name = first.toLowerCase();
    const switches = rest.filter((word) => /^\/[a-z?]$/i.test(word)).map((word) => word.toLowerCase());
    const operands = rest
      .filter((word) => !/^\/[a-z?]+(:\S*)?$/i.test(word))
      .map((word) => posixFromWindows(word, scope.cwd));
    if (name === 'del' || name === 'erase' || name === 'rd' || name === 'rmdir') {
      const recursive = switches.includes('/s');
      scope.runArgv(['rm', recursive ? '-rf' : '-f', ...operands], 'cmd');
    } else if (
      name === 'dir' ||
      name === 'echo' ||
      name === 'cd' ||
      name === 'set' ||
      name === 'ver' ||
      name === 'where'
    ) {
      if (name === 'dir') scope.runArgv(['ls', ...operands], 'cmd');
    } else if (name === 'type') scope.runArgv(['cat', ...operands], 'cmd');
    else if (name === 'copy' || name === 'xcopy') scope.runArgv(['cp', '-r', ...operands], 'cmd');
    else if (name === 'move') scope.runArgv(['mv', ...operands], 'cmd');
    else if (name === 'mkdir' || name === 'md') scope.runArgv(['mkdir', '-p', ...operands], 'cmd');
    else if (name === 'robocopy' && switches.some((each) => each === '/mir' || each === '/purge'))
      scope.add({ code: 'shell.cmd.robocopy-mirror-deletes', destructive: RISK.ask, onTask: 0.4 });
    else judgeNative(scope, words);
  }
}

/** The script a PowerShell host program is given (`-Command`, `-c`, `-EncodedCommand`, `-File`). */
function powershellHost(scope: CommandScope): void {
  const { args } = scope.command;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!.toLowerCase();
    if (/^-(c|command|co|com)$/.test(arg)) {
      judgePowerShell(scope, args.slice(index + 1).join(' '));
      return;
    }
    if (/^-(e|ec|en|enc|encodedcommand)$/.test(arg)) {
      // Base64 of UTF-16LE text: decoded and read like any other script.
      const decoded = Buffer.from(args[index + 1] ?? '', 'base64').toString('utf16le');
      if (decoded.trim() === '' || /[\u0000-\u0008]/.test(decoded)) {
        scope.add({
          code: 'shell.powershell.encoded-unreadable',
          uncertain: true,
          destructive: RISK.ask,
        });
        return;
      }
      scope.add({ code: 'shell.powershell.encoded', onTask: 0.5 });
      judgePowerShell(scope, decoded);
      return;
    }
    if (/^-(f|file)$/.test(arg)) {
      scope.runArgv(['sh', posixFromWindows(args[index + 1] ?? '', scope.cwd)], 'powershell-file');
      return;
    }
    if (!arg.startsWith('-')) {
      judgePowerShell(scope, args.slice(index).join(' '));
      return;
    }
    // Host options (`-NoProfile`, `-ExecutionPolicy Bypass` for this process, `-WindowStyle Hidden`).
    if (/^-(executionpolicy|ep|ex|windowstyle|w|inputformat|outputformat)$/.test(arg)) {
      if (/^-(w|windowstyle)$/.test(arg) && /^hidden$/i.test(args[index + 1] ?? ''))
        scope.add({ code: 'shell.powershell.hidden-window', uncertain: true, onTask: 0.4 });
      index++;
    }
  }
  scope.add({ code: 'shell.powershell.interactive', uncertain: true });
}

const cmdHost: CommandRule = (scope) => {
  const { args } = scope.command;
  const at = args.findIndex((arg) => /^\/[ck]$/i.test(arg));
  if (at < 0) {
    scope.add({ code: 'shell.cmd.interactive', uncertain: true });
    return;
  }
  judgeCmd(scope, args.slice(at + 1).join(' '));
};

export const WINDOWS_SHELL_RULES: ReadonlyMap<string, CommandRule> = new Map([
  ['powershell', powershellHost],
  ['powershell.exe', powershellHost],
  ['pwsh', powershellHost],
  ['pwsh.exe', powershellHost],
  ['cmd', cmdHost],
  ['cmd.exe', cmdHost],
]);
