/**
 * The `@arbiter/tool-gate/host-settings` entry: adding and removing the gate's hooks in a host's
 * settings file, light enough for the CLI's install command to import without the pack.
 */
export {
  addHookGroups,
  type HookEntry,
  type HookGroupToAdd,
  type HookSettingsChange,
  removeHookCommands,
} from './hosts/hook-settings-file.js';
