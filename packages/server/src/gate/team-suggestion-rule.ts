import { viewToolCall } from '@arbiter/tool-gate/permission-rules';
import type { TeamCall } from '@arbiter/tool-gate/team';

/**
 * The kind of call a reported ASK is, as the permission rule that would allow it (Claude Code's
 * syntax, which the pack's `StaticPolicy` and the hooks' team policy parse), or null when the call
 * is never suggested. Calls of one kind are counted together: a kind asked `suggestAfter` times
 * and never declined becomes a suggested rule (docs/tool-gate.md, "Suggested rules").
 *
 * - A shell call (Claude Code's `Bash`, Gemini CLI's `run_shell_command`, Codex's `shell` and
 *   `exec_command`: `ruleCoversTool` maps every one of them onto `Bash` rules) that is ONE simple
 *   command becomes `Bash(<program> [word] [word]:*)`: the program and up to two following words
 *   that are not options, paths or values (`npm run build --prod` → `Bash(npm run build:*)`).
 * - A fetch call becomes `WebFetch(domain:<host>)`.
 * - Everything else (file tools, MCP tools, compound command lines) is never suggested: a rule
 *   wide enough to cover them would allow far more than anyone approved.
 */
export function suggestionRuleOf(tool: string, call: TeamCall): string | null {
  const view = viewToolCall(tool, {
    ...(call.command === undefined ? {} : { command: call.command }),
    ...(call.url === undefined ? {} : { url: call.url }),
  });
  if (view.kind === 'shell') return view.command === null ? null : shellRuleOf(view.command);
  if (view.kind === 'fetch') return view.url === null ? null : fetchRuleOf(view.url);
  return null;
}

/**
 * Anything that makes a line more than one simple command, or makes what runs depend on more than
 * its words: list and pipeline operators, redirections, substitutions, subshells and groups,
 * escapes, comments and line breaks. A line holding one is never suggested, even inside quotes:
 * telling a quoted `;` from a real one is the analysis's work, and a suggestion may only be wrong
 * by being absent.
 */
const NOT_SIMPLE = /[;&|<>`$(){}\\#\n\r]/;

/** A program named by a bare word: no path (`./gradlew`, `/usr/bin/make`), no assignment. */
const PROGRAM = /^[A-Za-z0-9_][A-Za-z0-9_+-]*$/;

/**
 * A word that names what the program does (`run`, `build`, `test:unit`): letters, digits and
 * `_ - : @ +`. Options (`-q`), paths (`src/a.ts`, `./x`, `~`), file names (`setup.py`), values
 * (`NAME=x`, `'quoted'`) and redaction markers (`[REDACTED:…]`) all end the rule's words.
 */
const SUBCOMMAND = /^[A-Za-z0-9][A-Za-z0-9_:@+-]*$/;

/**
 * Programs whose approval says nothing about what a later call of theirs does, never suggested:
 * shells and interpreters run whatever code their arguments hold, wrappers run another program,
 * privilege tools run it as someone else, and `find`, `sed` and `awk` delete, edit or execute
 * through options a prefix rule cannot exclude.
 */
const NEVER_SUGGESTED = new Set([
  ...['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh', 'pwsh', 'powershell', 'cmd'],
  ...['python', 'python2', 'python3', 'node', 'deno', 'bun', 'ruby', 'perl', 'php', 'lua', 'Rscript'],
  ...['osascript', 'awk', 'gawk', 'sed', 'find'],
  ...['env', 'xargs', 'eval', 'exec', 'command', 'builtin', 'nohup', 'time', 'timeout', 'nice'],
  ...['ionice', 'watch', 'stdbuf', 'setsid', 'sudo', 'su', 'doas', 'pkexec', 'runas'],
]);

/** At most the program and this many words: `Bash(npm run build:*)`, not a whole command line. */
const MAX_WORDS_AFTER_PROGRAM = 2;

function shellRuleOf(command: string): string | null {
  const line = command.trim();
  if (line === '' || NOT_SIMPLE.test(line)) return null;
  const words = line.split(/[ \t]+/);
  const program = words[0];
  if (program === undefined || !PROGRAM.test(program) || NEVER_SUGGESTED.has(program)) return null;
  const kept = [program];
  for (const word of words.slice(1)) {
    if (kept.length > MAX_WORDS_AFTER_PROGRAM || !SUBCOMMAND.test(word)) break;
    kept.push(word);
  }
  return `Bash(${kept.join(' ')}:*)`;
}

function fetchRuleOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  const host = parsed.hostname.toLowerCase();
  // A domain rule covers the host and its subdomains (`fetchMatches`); a bare IPv6 literal or an
  // empty host cannot be written as one.
  if (host === '' || host.includes(':') || host.includes('[')) return null;
  return `WebFetch(domain:${host})`;
}
