import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface GateInstallOptions {
  readonly project?: boolean;
  readonly user?: boolean;
  readonly settings?: string;
  readonly command?: string;
}

/** `arbiter gate install|uninstall claude-code`: adds or removes the PreToolUse hook. */
export async function runGateInstall(
  action: 'install' | 'uninstall',
  host: string,
  options: GateInstallOptions,
): Promise<void> {
  if (host !== 'claude-code') {
    throw new Error(
      `automatic install supports claude-code; for ${host} add \`arbiter gate hook ${host}\` to its hook settings (see docs/tool-gate.md)`,
    );
  }
  if (options.project === true && options.user === true)
    throw new Error('choose one of --project and --user');
  const settingsPath =
    options.settings !== undefined
      ? resolve(options.settings)
      : options.user === true
        ? join(homedir(), '.claude', 'settings.json')
        : resolve('.claude', 'settings.json');
  const { installClaudeCodeHook, uninstallClaudeCodeHook, DEFAULT_CLAUDE_CODE_HOOK_COMMAND } = await import(
    '@arbiter/tool-gate'
  );
  const command = options.command ?? DEFAULT_CLAUDE_CODE_HOOK_COMMAND;
  const result =
    action === 'install'
      ? await installClaudeCodeHook(settingsPath, command)
      : await uninstallClaudeCodeHook(settingsPath, command);
  const verb = action === 'install' ? 'installed in' : 'removed from';
  const message = result.changed
    ? `${command}: ${verb} ${result.settingsPath}${result.backupPath === null ? '' : ` (backup: ${result.backupPath})`}`
    : `${command}: ${result.settingsPath} already ${action === 'install' ? 'has the hook' : 'has no such hook'}; nothing changed`;
  process.stdout.write(`${message}\n`);
}
