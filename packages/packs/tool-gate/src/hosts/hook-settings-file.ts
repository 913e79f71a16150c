import { readHostSettingsFile } from './host-settings-file.js';
import { writeSettingsWithBackup } from './settings-with-backup.js';

/**
 * One hook entry of the settings files Claude Code (`.claude/settings.json`), Gemini CLI
 * (`settings.json`) and Codex (`hooks.json`) read: all three use Claude Code's shape, `{"hooks":
 * {"<event>": [{"matcher"?, "hooks": [{"type": "command", "command", "timeout"}]}]}}`, each with
 * its own event names and timeout unit.
 */
export interface HookEntry {
  readonly type: 'command';
  readonly command: string;
  /** In the host's own unit: milliseconds for Gemini CLI, seconds for Claude Code and Codex. */
  readonly timeout: number;
  readonly name?: string;
}

export interface HookGroupToAdd {
  /** Absent: every tool (Codex runs a group without a matcher for every tool). */
  readonly matcher?: string;
  readonly hooks: readonly [HookEntry];
}

export interface HookSettingsChange {
  readonly settingsPath: string;
  /** False when the file already held the hook (install) or never held it (uninstall). */
  readonly changed: boolean;
  /** Copy of the file as it was before the change; null when nothing changed or no file existed. */
  readonly backupPath: string | null;
}

interface StoredHook {
  command?: unknown;
}
interface StoredGroup {
  hooks?: StoredHook[];
}

function eventGroups(settings: Record<string, unknown>, settingsPath: string, event: string): StoredGroup[] {
  settings.hooks ??= {};
  const hooks = settings.hooks;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))
    throw new Error(`"hooks" in ${settingsPath} is not an object; fix it first`);
  const record = hooks as Record<string, unknown>;
  record[event] ??= [];
  if (!Array.isArray(record[event])) throw new Error(`"hooks.${event}" in ${settingsPath} is not an array`);
  return record[event] as StoredGroup[];
}

const runsCommand = (group: StoredGroup, command: string) =>
  Array.isArray(group.hooks) && group.hooks.some((hook) => hook.command === command);

/**
 * Adds `group` under `hooks.<event>` unless a hook there already runs its command. Keeps every
 * other setting and hook, copies the old file to `<file>.arbiter-backup-<time>` first, and
 * replaces the file atomically.
 */
export async function addHookGroup(
  settingsPath: string,
  event: string,
  group: HookGroupToAdd,
): Promise<HookSettingsChange> {
  return addHookGroups(settingsPath, [{ event, group }]);
}

/**
 * {@link addHookGroup} for several events in one write (a reporting hook's before- and
 * after-tool events): one backup of the file as it was, one atomic replacement.
 */
export async function addHookGroups(
  settingsPath: string,
  entries: readonly { readonly event: string; readonly group: HookGroupToAdd }[],
): Promise<HookSettingsChange> {
  const settings = await readHostSettingsFile(settingsPath);
  let changed = false;
  for (const { event, group } of entries) {
    const groups = eventGroups(settings, settingsPath, event);
    if (groups.some((stored) => runsCommand(stored, group.hooks[0].command))) continue;
    groups.push({ ...group, hooks: [...group.hooks] } as StoredGroup);
    changed = true;
  }
  if (!changed) return { settingsPath, changed: false, backupPath: null };
  return writeSettings(settingsPath, settings);
}

/**
 * Removes every hook under `hooks.<event>` that runs `command`, then any group, event list and
 * `hooks` object left empty by that: exactly what {@link addHookGroup} added.
 */
export async function removeHookCommand(
  settingsPath: string,
  event: string,
  command: string,
): Promise<HookSettingsChange> {
  return removeHookCommands(settingsPath, [event], command);
}

/** {@link removeHookCommand} under several events, in one write. */
export async function removeHookCommands(
  settingsPath: string,
  events: readonly string[],
  command: string,
): Promise<HookSettingsChange> {
  const settings = await readHostSettingsFile(settingsPath);
  const hooks = settings.hooks as Record<string, unknown> | undefined;
  let changed = false;
  for (const event of events) {
    const groups = hooks !== undefined && Array.isArray(hooks[event]) ? (hooks[event] as StoredGroup[]) : [];
    let changedHere = false;
    const kept: StoredGroup[] = [];
    for (const group of groups) {
      if (!Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const remaining = group.hooks.filter((hook) => hook.command !== command);
      if (remaining.length !== group.hooks.length) changedHere = true;
      if (remaining.length > 0) kept.push({ ...group, hooks: remaining });
    }
    if (!changedHere || hooks === undefined) continue;
    changed = true;
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (!changed || hooks === undefined) return { settingsPath, changed: false, backupPath: null };
  if (Object.keys(hooks).length === 0) delete settings.hooks;
  return writeSettings(settingsPath, settings);
}

async function writeSettings(
  settingsPath: string,
  settings: Record<string, unknown>,
): Promise<HookSettingsChange> {
  return { settingsPath, changed: true, backupPath: await writeSettingsWithBackup(settingsPath, settings) };
}
