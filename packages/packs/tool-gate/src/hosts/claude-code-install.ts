import { addHookGroup, type HookSettingsChange, removeHookCommand } from './hook-settings-file.js';

export const DEFAULT_CLAUDE_CODE_HOOK_COMMAND = 'arbiter gate hook claude-code';

/**
 * Adds the gate as a PreToolUse hook for every tool to a Claude Code settings file. Idempotent (a
 * second run changes nothing), keeps every other setting, writes a timestamped backup before
 * changing an existing file, and replaces the file atomically.
 */
export async function installClaudeCodeHook(
  settingsPath: string,
  command: string = DEFAULT_CLAUDE_CODE_HOOK_COMMAND,
): Promise<HookSettingsChange> {
  return addHookGroup(settingsPath, 'PreToolUse', {
    matcher: '*',
    hooks: [{ type: 'command', command, timeout: 30 }],
  });
}

/** Removes the hooks that run `command` (and any group left empty); reverses `installClaudeCodeHook`. */
export async function uninstallClaudeCodeHook(
  settingsPath: string,
  command: string = DEFAULT_CLAUDE_CODE_HOOK_COMMAND,
): Promise<HookSettingsChange> {
  return removeHookCommand(settingsPath, 'PreToolUse', command);
}
