import { WINDOWS_SHELL_RULES } from './powershell/powershell-rules.js';
import { DATABASE_RULES } from './rules/database-rules.js';
import { DEVELOPMENT_RULES } from './rules/development-rules.js';
import { FILE_SYSTEM_RULES, mkfsFamily } from './rules/file-system-rules.js';
import { GIT_RULES } from './rules/git-rules.js';
import { JVM_LAUNCHER_RULES } from './rules/jvm-launcher-rules.js';
import { NETWORK_RULES } from './rules/network-rules.js';
import { PROBE_AND_LOAD_RULES } from './rules/probe-and-load-rules.js';
import { PROCESS_RULES } from './rules/process-rules.js';
import { SHELL_RULES } from './rules/shell-rules.js';
import { SYSTEM_SETTING_RULES } from './rules/system-setting-rules.js';
import { WINDOWS_PROGRAM_RULES } from './rules/windows-program-rules.js';
import type { CommandRule } from './shell-command.js';

/** Every program-specific rule, by program name (each name belongs to one family). */
const COMMAND_RULES: ReadonlyMap<string, CommandRule> = new Map([
  ...JVM_LAUNCHER_RULES,
  ...DEVELOPMENT_RULES,
  ...PROCESS_RULES,
  ...DATABASE_RULES,
  ...NETWORK_RULES,
  ...PROBE_AND_LOAD_RULES,
  ...GIT_RULES,
  ...SHELL_RULES,
  ...SYSTEM_SETTING_RULES,
  ...FILE_SYSTEM_RULES,
  ...WINDOWS_SHELL_RULES,
  ...WINDOWS_PROGRAM_RULES,
]);

export function ruleFor(program: string): CommandRule | undefined {
  const rule = COMMAND_RULES.get(program);
  if (rule !== undefined) return rule;
  if (mkfsFamily(program)) return FILE_SYSTEM_RULES.get('mkfs');
  const versioned = /^(python|pip|ruby|perl|node|php)(\d+(\.\d+)*)$/.exec(program);
  if (versioned !== null)
    return COMMAND_RULES.get(
      versioned[1] === 'python' || versioned[1] === 'pip' ? `${versioned[1]}3` : versioned[1]!,
    );
  return undefined;
}
