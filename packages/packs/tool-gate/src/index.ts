export { AuditLog } from './audit/audit-log.js';
export { composeToolGate } from './composition/compose-tool-gate.js';
export { guardGitPush, guardPrePush } from './guard/git-push-guard.js';
export {
  DEFAULT_CLAUDE_CODE_HOOK_COMMAND,
  installClaudeCodeHook,
  uninstallClaudeCodeHook,
} from './hosts/claude-code-install.js';
export { DEFAULT_HOOK_TASK, type HookInputReading, type HostName } from './hosts/host-hook.js';
export { HOST_HOOKS } from './hosts/host-hooks.js';
export { type HostHookResult, judgeHostHook, runHostHook } from './hosts/run-host-hook.js';
export { canonicalSha256 } from './pack/canonical-sha256.js';
export { loadToolGatePack, TOOL_GATE_PACK } from './pack/tool-gate-pack.js';
export {
  DEFAULT_TOOL_GATE_THRESHOLDS,
  resolveToolGateThresholds,
  type ToolGateThresholds,
  type ToolGateThresholdsInput,
} from './pack/tool-gate-thresholds.js';
export { FilePermissionManager } from './permission/file-permission-manager.js';
export { readClaudeSettingsPolicy, readPolicyFile } from './policy/claude-settings-policy.js';
export { StaticPolicy, type StaticPolicyRules } from './policy/static-policy.js';
export {
  buildTeamOutcomeRecord,
  buildTeamVerdictRecord,
  programOf,
  projectOf,
  type TeamRecordCall,
  type TeamRecordContext,
} from './team/team-record-builder.js';
export { createToolGate, type ToolGate, type ToolGateDecisionClient } from './tool-gate.js';
export { toolGateStateSchema } from './tool-gate-state.js';
export type { ToolGateMode, ToolGateVerdict } from './tool-gate-verdict.js';
