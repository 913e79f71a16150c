import { DEFAULT_TOOL_GATE_THRESHOLDS, type ToolGateThresholds } from '@arbiter/tool-gate/contract';
import { loadBashParser } from './bash-parser.js';
import { analyseFileTool } from './file-tool-analyser.js';
import type { Finding } from './finding.js';
import { matchesGrant } from './grant-match.js';
import { judgeInsertedContent } from './inserted-content.js';
import {
  isPowerShellParserLoaded,
  loadPowerShellParser,
  mentionsPowerShell,
} from './powershell/powershell-parser.js';
import { isWindowsPath } from './powershell/windows-path.js';
import { analyseShellCommand } from './shell-analyser.js';
import { type CanonicalTool, canonicalTool, readToolCallState, shellCommandOf } from './tool-call-state.js';
import { type ToolGateAnswers, toolGateAnswers } from './tool-gate-answers.js';

/**
 * The full analysis of one proposed tool call: what it is, the segments of a shell command,
 * every finding with its evidence code, and the six answers of the tool-gate pack.
 */
export interface ToolCallAnalysis {
  /** False when the state was not a tool-gate state; the answers are then an abstention. */
  valid: boolean;
  tool: string;
  canonicalTool: CanonicalTool;
  /** The shell command analysed, when the tool runs one. */
  command?: string;
  segments: string[];
  findings: Finding[];
  /** Every part of the call was understood (no parse errors, no unknown programs or tools). */
  understood: boolean;
  answers: ToolGateAnswers;
}

/** Analyses a tool call; loads the shell grammar on first use. */
export async function analyseToolCall(
  state: unknown,
  thresholds: ToolGateThresholds = DEFAULT_TOOL_GATE_THRESHOLDS,
): Promise<ToolCallAnalysis> {
  await loadParsersFor(state);
  return analyseToolCallSync(state, thresholds);
}

/**
 * Loads the grammars a call needs before its synchronous analysis: bash always, PowerShell only
 * for a call that holds some (most never do, and its grammar is a megabyte of WebAssembly).
 */
export async function loadParsersFor(state: unknown): Promise<void> {
  await loadBashParser();
  if (needsPowerShellParser(state)) await loadPowerShellParser();
}

/**
 * Whether a call holds PowerShell the grammar is not yet loaded for: only a shell command can (a
 * state given as JSON text is read whole). Cheap, as it runs before every verdict.
 */
export function needsPowerShellParser(state: unknown): boolean {
  if (isPowerShellParserLoaded()) return false;
  if (typeof state === 'string') return mentionsPowerShell(state);
  const { arguments: args, cwd } = (state ?? {}) as { arguments?: unknown; cwd?: unknown };
  if (typeof args !== 'object' || args === null) return false;
  const command = shellCommandOf(args as Record<string, unknown>);
  if (command === undefined) return false;
  // On a Windows host every shell command may be read as PowerShell (`asShellCommand`).
  return mentionsPowerShell(command) || (typeof cwd === 'string' && isWindowsPath(cwd));
}

/** `cmd`'s own commands, which PowerShell would read as its aliases with other meanings. */
const CMD_BUILTINS = new Set([
  'del',
  'erase',
  'rd',
  'rmdir',
  'dir',
  'type',
  'copy',
  'xcopy',
  'move',
  'md',
  'mkdir',
  'set',
  'ren',
  'rename',
]);

/**
 * The command as the host's shell will run it. A command that is PowerShell by its first word
 * (`Get-ChildItem …`, a `Verb-Noun` cmdlet) is read as PowerShell. On a Windows host (a `cwd`
 * with a drive letter) a shell tool other than Claude Code's Bash (which runs Git Bash there)
 * runs in PowerShell or `cmd`, where a backslash separates folders: the command is handed to the
 * Windows rules whole, so bash's escaping never rewrites its paths.
 */
function asShellCommand(command: string, cwd: string | undefined, tool: string): string {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  if (/^\s*[A-Z][a-z]+-[A-Z][A-Za-z]+\b/.test(command)) return `pwsh -Command ${quote(command)}`;
  if (!isWindowsPath(cwd) || tool === 'Bash') return command;
  const first = (/^\s*(\S+)/.exec(command)?.[1] ?? '').toLowerCase().replace(/\.exe$/, '');
  if (first === 'powershell' || first === 'pwsh') return command;
  if (first === 'cmd') {
    const rest = /^\s*\S+\s+\/[ck]\s+([\s\S]*)$/i.exec(command)?.[1];
    return rest === undefined ? command : `cmd /c ${quote(rest)}`;
  }
  if (CMD_BUILTINS.has(first)) return `cmd /c ${quote(command)}`;
  return `pwsh -Command ${quote(command)}`;
}

/** Analyses a tool call once `loadBashParser()` has resolved (shell commands need the grammar). */
export function analyseToolCallSync(
  state: unknown,
  thresholds: ToolGateThresholds = DEFAULT_TOOL_GATE_THRESHOLDS,
): ToolCallAnalysis {
  const read = readToolCallState(state);
  if (!read.ok) {
    const findings: Finding[] = [{ code: read.reason, uncertain: true, implausible: true }];
    return {
      valid: false,
      tool: '',
      canonicalTool: 'Other',
      segments: [],
      findings,
      understood: false,
      answers: toolGateAnswers({
        findings,
        inGrant: undefined,
        abstained: true,
        grantEvidence: 'grant.unknown',
        thresholds,
      }),
    };
  }
  const { tool, arguments: args, grant, task, cwd } = read.state;
  const canonical = canonicalTool(tool);
  const mcpShell =
    canonical === 'Mcp' && /shell|exec|command|terminal|bash/i.test(tool) ? shellCommandOf(args) : undefined;
  let segments: string[] = [];
  let findings: Finding[];
  let command: string | undefined;
  let path: string | undefined;
  let url: string | undefined;
  if (canonical === 'Bash' || mcpShell !== undefined) {
    command = mcpShell ?? shellCommandOf(args);
    if (command === undefined || command.trim() === '') {
      findings = [{ code: 'tool.shell.missing-command', uncertain: true, implausible: true }];
    } else {
      try {
        const shell = analyseShellCommand(asShellCommand(command, cwd, tool), { cwd, task });
        segments = shell.segments;
        // Principle 5: text the command writes into a file is judged as a Write of it would be.
        findings = [
          ...shell.findings,
          ...shell.writtenTexts.flatMap(({ path, text, removed }) =>
            judgeInsertedContent({ path, inserted: text, removed, task, cwd }),
          ),
        ];
      } catch (error) {
        // An analyser fault must not take the gate down or let the call through: it is recorded
        // as evidence and the call is asked about.
        const name = error instanceof Error ? error.name : typeof error;
        findings = [{ code: `analysis.failed:${name}`, uncertain: true, implausible: true }];
      }
    }
  } else {
    const file = analyseFileTool({ tool, canonical, args, cwd, task });
    findings = file.findings;
    path = file.path;
    url = file.url;
  }
  const granted =
    grant.length === 0 ? undefined : matchesGrant(grant, tool, canonical, { segments, path, url, cwd });
  const understood = !findings.some((finding) => finding.uncertain === true);
  return {
    valid: true,
    tool,
    canonicalTool: canonical,
    ...(command === undefined ? {} : { command }),
    segments,
    findings,
    understood,
    answers: toolGateAnswers({
      findings,
      inGrant: granted,
      abstained: false,
      grantEvidence: granted === undefined ? 'grant.none-given' : granted ? 'grant.match' : 'grant.no-match',
      thresholds,
    }),
  };
}
