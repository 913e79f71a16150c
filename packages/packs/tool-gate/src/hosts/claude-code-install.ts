import { readHostSettingsFile } from './host-settings-file.js';
import { writeSettingsWithBackup } from './settings-with-backup.js';

export const DEFAULT_CLAUDE_CODE_HOOK_COMMAND = 'arbiter gate hook claude-code';

export interface ClaudeCodeInstallResult {
  readonly settingsPath: string;
  /** False when the settings already held the hook (install) or never held it (uninstall). */
  readonly changed: boolean;
  /** Copy of the settings as they were before the change; null when nothing changed or no file existed. */
  readonly backupPath: string | null;
}

interface HookCommand {
  type?: unknown;
  command?: unknown;
}
interface HookGroup {
  matcher?: unknown;
  hooks?: HookCommand[];
}

/**
 * Adds the gate as a PreToolUse hook to a Claude Code settings file. Idempotent (a second run
 * changes nothing), keeps every other setting, writes a timestamped backup before changing an
 * existing file, and replaces the file atomically.
 */
export async function installClaudeCodeHook(
  settingsPath: string,
  command: string = DEFAULT_CLAUDE_CODE_HOOK_COMMAND,
): Promise<ClaudeCodeInstallResult> {
  const settings = await readHostSettingsFile(settingsPath);
  const groups = preToolUseGroups(settings);
  if (groups.some((group) => group.hooks?.some((hook) => hook.command === command))) {
    return { settingsPath, changed: false, backupPath: null };
  }
  groups.push({ matcher: '*', hooks: [{ type: 'command', command, timeout: 30 } as HookCommand] });
  return writeSettings(settingsPath, settings);
}

/** Removes the hooks that run `command` (and any group left empty); reverses `installClaudeCodeHook`. */
export async function uninstallClaudeCodeHook(
  settingsPath: string,
  command: string = DEFAULT_CLAUDE_CODE_HOOK_COMMAND,
): Promise<ClaudeCodeInstallResult> {
  const settings = await readHostSettingsFile(settingsPath);
  const hooks = settings.hooks as Record<string, unknown> | undefined;
  const groups = Array.isArray(hooks?.PreToolUse) ? (hooks.PreToolUse as HookGroup[]) : [];
  let changed = false;
  const kept: HookGroup[] = [];
  for (const group of groups) {
    const remaining = (group.hooks ?? []).filter((hook) => hook.command !== command);
    if (remaining.length !== (group.hooks ?? []).length) changed = true;
    if (remaining.length > 0 || group.hooks === undefined) kept.push({ ...group, hooks: remaining });
  }
  if (!changed || hooks === undefined) return { settingsPath, changed: false, backupPath: null };
  if (kept.length > 0) hooks.PreToolUse = kept;
  else delete hooks.PreToolUse;
  if (Object.keys(hooks).length === 0) delete settings.hooks;
  return writeSettings(settingsPath, settings);
}

function preToolUseGroups(settings: Record<string, unknown>): HookGroup[] {
  if (settings.hooks === undefined) settings.hooks = {};
  const hooks = settings.hooks;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    throw new TypeError('settings "hooks" is not an object; fix it before installing');
  }
  const record = hooks as Record<string, unknown>;
  if (record.PreToolUse === undefined) record.PreToolUse = [];
  if (!Array.isArray(record.PreToolUse)) throw new TypeError('settings "hooks.PreToolUse" is not an array');
  return record.PreToolUse as HookGroup[];
}

async function writeSettings(
  settingsPath: string,
  settings: Record<string, unknown>,
): Promise<ClaudeCodeInstallResult> {
  return { settingsPath, changed: true, backupPath: await writeSettingsWithBackup(settingsPath, settings) };
}
