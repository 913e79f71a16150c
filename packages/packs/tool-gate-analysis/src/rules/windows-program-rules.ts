import { RISK } from '../risk-scale.js';
import type { CommandRule, CommandScope } from '../shell-command.js';

/**
 * Windows system programs, judged the same wherever their command line comes from: a PowerShell
 * or `cmd` script (powershell-rules.ts hands native programs here through the rule table) or a
 * host's shell tool on a Windows machine. Each shows and also changes the machine: the showing
 * verbs are reads; a change of what runs at log-on, of the firewall or of a service is asked or
 * denied, and a verb the rule does not know is not understood.
 */

/**
 * Registry keys that run a program at log-on or start-up. The separators are optional because a
 * POSIX shell (Git Bash, which runs Claude Code's Bash tool on Windows) removes the backslashes
 * of an unquoted `HKCU\Software\…\Run` before `reg` sees it.
 */
export const AUTORUN_KEY =
  /(\\|CurrentVersion\\?)(Run|RunOnce|RunServices|Winlogon|Shell Folders|User Shell Folders)\b|Image File Execution Options/i;

function persistence(scope: CommandScope, what: string): void {
  scope.add({ code: `shell.persistence:windows-${what}`, deny: RISK.deny, onTask: 0.05 });
}

function notUnderstood(scope: CommandScope, program: string, verb: string, destructive: number): void {
  scope.add({
    code: `system.${program}.sets:${verb.replace(/^\//, '') || 'unknown'}`.slice(0, 60) as `system.${string}`,
    destructive,
    uncertain: true,
    onTask: 0.3,
  });
}

/** `reg query|export` read; `reg add` of an autorun key is persistence; other verbs change the registry. */
const reg: CommandRule = (scope) => {
  const args = scope.command.args;
  const verb = (args[0] ?? '').toLowerCase();
  if (verb === 'query' || verb === 'export' || verb === 'compare') return;
  if ((verb === 'add' || verb === 'import' || verb === 'copy') && AUTORUN_KEY.test(args.join(' '))) {
    persistence(scope, 'run-key');
    return;
  }
  notUnderstood(scope, 'reg', verb, verb === 'delete' ? RISK.ask : RISK.askLow);
};

/** `schtasks /query` reads; `/create` and `/change` make something run later (persistence). */
const schtasks: CommandRule = (scope) => {
  const verb = (
    scope.command.args.find((arg) => /^\/(create|delete|change|run|end|query)$/i.test(arg)) ?? ''
  ).toLowerCase();
  if (verb === '/query' || verb === '') {
    if (verb === '') notUnderstood(scope, 'schtasks', '', RISK.askLow);
    return;
  }
  if (verb === '/create' || verb === '/change') {
    persistence(scope, `schtasks-${verb.slice(1)}`);
    return;
  }
  notUnderstood(scope, 'schtasks', verb, RISK.ask);
};

/**
 * `netsh … show|dump` reads. The firewall switched off or opened is a protection removed, asked at
 * the high step whatever the task; any other `set`, `add` or `delete` changes the machine's network.
 */
const netsh: CommandRule = (scope) => {
  const words = scope.command.args.map((arg) => arg.toLowerCase());
  if (words.some((word) => word === 'show' || word === 'dump') && !words.includes('set')) return;
  const firewall = words.includes('advfirewall') || words.includes('firewall');
  if (firewall && (words.includes('off') || words.includes('disable') || words.includes('allow'))) {
    scope.add({ code: 'system.netsh.sets:firewall-opened', deny: RISK.askHigh, onTask: 0.1 });
    return;
  }
  const verb = words.find((word) => /^(set|add|delete|reset|import|exec)$/.test(word)) ?? '';
  notUnderstood(scope, 'netsh', verb, RISK.askLow);
};

export const WINDOWS_PROGRAM_RULES: ReadonlyMap<string, CommandRule> = new Map([
  ['reg', reg],
  ['schtasks', schtasks],
  ['netsh', netsh],
]);
