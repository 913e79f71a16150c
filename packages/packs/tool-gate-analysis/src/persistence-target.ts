import type { Finding } from './finding.js';
import type { FindingFamily } from './finding-catalogue.js';
import { RISK } from './risk-scale.js';

/**
 * Files whose change makes something run later without the user asking: shell start-up files,
 * SSH authorised keys, schedulers, service units, login agents, git hooks, CI workflows.
 * Writing one is how an attacker stays; an agent doing it unasked is denied.
 */
const PERSISTENCE_TARGETS: readonly [string, RegExp][] = [
  [
    'shell-startup',
    /(^|\/)\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin|kshrc|cshrc|tcshrc|inputrc)$/,
  ],
  ['shell-startup', /(^|\/)\.config\/fish\/(config\.fish|conf\.d\/)/],
  ['shell-startup', /^\/etc\/(profile|bash\.bashrc|zshrc|environment)$|^\/etc\/profile\.d\//],
  ['ssh-authorized-keys', /(^|\/)\.ssh\/(authorized_keys2?|config|rc)$/],
  ['scheduler', /^\/etc\/(cron|anacrontab)|^\/var\/spool\/cron|^\/etc\/at\.(allow|deny)/],
  [
    'service-unit',
    /^\/etc\/systemd\/|^\/lib\/systemd\/|^\/usr\/lib\/systemd\/|(^|\/)\.config\/systemd\/|^\/etc\/init\.d\/|^\/etc\/rc\.local$/,
  ],
  ['login-agent', /(^|\/)Library\/(LaunchAgents|LaunchDaemons)\/|(^|\/)\.config\/autostart\//],
  // Windows: the Startup folders run what they hold at log-on; a PowerShell profile runs in every
  // PowerShell session. Paths come with either separator.
  ['login-agent', /(^|[\\/])Start Menu[\\/]Programs[\\/]Startup[\\/]/i],
  ['shell-startup', /(^|[\\/])(Windows)?PowerShell[\\/]([\w.]*_)?profile\.ps1$/i],
  ['loader-preload', /^\/etc\/ld\.so\.preload$/],
  ['sudoers', /^\/etc\/sudoers(\.d\/|$)/],
  ['git-hook', /(^|\/)\.git\/hooks\//],
  // The agent's own controls: its settings say what it may do and which hooks watch it, and its
  // hook scripts run on every tool call. Changing them is changing the agent's oversight.
  [
    'agent-settings',
    /(^|\/)(\.claude\/settings(\.local)?\.json|\.gemini\/settings\.json|\.codex\/config\.toml|\.cursor\/[^/]+\.json|\.mcp\.json)$/,
  ],
  ['agent-hook', /(^|\/)\.(claude|gemini|codex|cursor)\/hooks\//],
  ['repo-hook', /(^|\/)\.husky\/[^_]/],
  ['git-config', /(^|\/)\.gitconfig$|(^|\/)\.git\/config$/],
  [
    'ci-workflow',
    /(^|\/)\.github\/workflows\/|(^|\/)\.gitlab-ci\.ya?ml$|(^|\/)\.circleci\/config\.ya?ml$|(^|\/)Jenkinsfile$|(^|\/)azure-pipelines\.ya?ml$|(^|\/)\.buildkite\//,
  ],
];

/** Kinds the task can legitimately ask for (a CI change, a hook set-up); the others never. */
const TASK_PERMITS: Readonly<Record<string, RegExp>> = {
  'ci-workflow': /\b(ci|workflows?|github actions?|pipelines?|gitlab-ci|circleci|jenkins)\b/i,
  'git-hook': /\b(hooks?|husky|pre-commit|pre-push)\b/i,
  'repo-hook': /\b(hooks?|husky|pre-commit|pre-push)\b/i,
  'git-config': /\bgit config(uration)?\b/i,
  'shell-startup': /\b(bashrc|zshrc|shell (config|profile|start-?up)|dotfiles?)\b/i,
  'agent-settings': /\b(claude|gemini|codex|cursor|mcp|agent settings|permissions?|hooks?)\b/i,
  'agent-hook': /\b(claude|gemini|codex|cursor|hooks?)\b/i,
};

/**
 * Automation kept in the repository, reviewed with the change: CI runs only after a push, and a
 * versioned hook (`.husky/`) shows in the diff every reviewer reads.
 * A hook in `.git/hooks` is in no diff and runs on this machine unseen.
 */
const REVIEWED_AUTOMATION = new Set(['ci-workflow', 'repo-hook']);

export function persistenceKind(path: string): string | undefined {
  for (const [kind, pattern] of PERSISTENCE_TARGETS) if (pattern.test(path)) return kind;
  return undefined;
}

/** A finding for a write to `path`, or undefined when the path is not a persistence target. */
export function persistenceFinding(
  path: string,
  task: string,
  codePrefix: `${FindingFamily}.${string}`,
): Finding | undefined {
  const kind = persistenceKind(path);
  if (kind === undefined) return undefined;
  const permitted = TASK_PERMITS[kind]?.test(task) === true;
  if (permitted)
    return { code: `${codePrefix}.persistence:${kind}`, destructive: RISK.routine, onTask: 0.85 };
  // Files that run on this machine unasked are how an attacker stays: denied. A project's shared
  // automation (CI, versioned hooks) is reviewed with the change, and its content is read
  // separately: asked.
  if (REVIEWED_AUTOMATION.has(kind))
    return {
      code: `${codePrefix}.persistence:${kind}`,
      destructive: RISK.ask,
      deny: RISK.askHigh,
      onTask: 0.3,
    };
  return {
    code: `${codePrefix}.persistence:${kind}`,
    destructive: RISK.ask,
    deny: RISK.denyHigh,
    onTask: 0.05,
  };
}
