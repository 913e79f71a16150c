import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../usage-error.js';
import { probeHookCommand, resolvedCliCommand } from './cli-launcher.js';

export interface GateInstallOptions {
  readonly project?: boolean;
  readonly user?: boolean;
  readonly settings?: string;
  readonly command?: string;
}

/** Hosts whose hook `arbiter gate hook` speaks but whose settings `gate install` does not write. */
const MANUAL_HOOK_HOSTS = ['gemini', 'codex'];

/** A harmless PreToolUse call for the probe run: reading a file of the project. */
function probeInput(cwd: string): string {
  return JSON.stringify({
    session_id: 'arbiter-gate-install-check',
    hook_event_name: 'PreToolUse',
    tool_name: 'Read',
    tool_input: { file_path: join(cwd, 'README.md') },
    cwd,
  });
}

/**
 * `arbiter gate install|uninstall claude-code`: adds or removes the PreToolUse hook. The command
 * written names node and this CLI by absolute path, since the host's `PATH` may hold no `arbiter`,
 * and it is run once before it is written: a hook that cannot start is treated by hosts as "no
 * objection", so a broken one would silently turn the gate off.
 */
export async function runGateInstall(
  action: 'install' | 'uninstall',
  host: string,
  options: GateInstallOptions,
): Promise<number | undefined> {
  if (host !== 'claude-code') {
    const manual = MANUAL_HOOK_HOSTS.includes(host)
      ? `add the command \`${resolvedCliCommand(['gate', 'hook', host])}\` to ${host}'s hook settings yourself`
      : `there is no hook adapter for ${JSON.stringify(host)}; \`arbiter gate hook\` speaks claude-code, gemini and codex`;
    throw new UsageError(`automatic install supports claude-code only; ${manual} (see docs/tool-gate.md)`);
  }
  if (options.project === true && options.user === true)
    throw new UsageError('choose one of --project and --user');
  const settingsPath =
    options.settings !== undefined
      ? resolve(options.settings)
      : options.user === true
        ? join(homedir(), '.claude', 'settings.json')
        : resolve('.claude', 'settings.json');
  const { installClaudeCodeHook, uninstallClaudeCodeHook, DEFAULT_CLAUDE_CODE_HOOK_COMMAND } = await import(
    '@arbiter/tool-gate'
  );
  const command = options.command ?? resolvedCliCommand(['gate', 'hook', 'claude-code']);
  if (action === 'uninstall') {
    let result = await uninstallClaudeCodeHook(settingsPath, command);
    // Versions before 0.1.1 wrote the bare `arbiter gate hook claude-code`.
    if (!result.changed && options.command === undefined)
      result = await uninstallClaudeCodeHook(settingsPath, DEFAULT_CLAUDE_CODE_HOOK_COMMAND);
    process.stdout.write(
      result.changed
        ? `removed the hook from ${result.settingsPath}${result.backupPath === null ? '' : ` (backup: ${result.backupPath})`}\n`
        : `${result.settingsPath} has no arbiter hook; nothing changed\n`,
    );
    return undefined;
  }
  // The project directory the host runs the hook in: the settings file's `.claude/..`.
  const projectDir = options.user === true ? process.cwd() : dirname(dirname(settingsPath));
  const probe = await probeHookCommand(command, probeInput(projectDir), process.cwd());
  if (!probe.ok) {
    process.stderr.write(
      `arbiter gate install: refusing to install \`${command}\`: a trial run failed: ${probe.problem}\n` +
        'A hook that cannot run lets every tool call through, so nothing was written. ' +
        'Install the CLI (npm install -g, see the README) or pass a working --command.\n',
    );
    return 1;
  }
  const result = await installClaudeCodeHook(settingsPath, command);
  const message = result.changed
    ? `${command}: installed in ${result.settingsPath}${result.backupPath === null ? '' : ` (backup: ${result.backupPath})`}`
    : `${command}: ${result.settingsPath} already has the hook; nothing changed`;
  process.stdout.write(`${message}\nchecked: the hook command ran once and answered as a hook should\n`);
  return undefined;
}
