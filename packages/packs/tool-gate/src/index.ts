export { AUDIT_GENESIS, type AuditEntry, AuditLog, type AuditVerification } from './audit/audit-log.js';
export {
  type ComposeInput,
  composeToolGate,
  type PolicyDecision,
  type ToolGateComposition,
  type ToolGateVerdictValue,
} from './composition/compose-tool-gate.js';
export type { ToolGateAnswers } from './composition/tool-gate-answers.js';
export {
  DEFAULT_PROTECTED_BRANCHES,
  type GitPushGuardOptions,
  type GitPushGuardResult,
  type GitPushViolation,
  type GitPushViolationKind,
  guardGitPush,
  guardPrePush,
  readRemotes,
} from './guard/git-push-guard.js';
export { claudeCodeHook, codexHook } from './hosts/claude-code-hook.js';
export {
  type ClaudeCodeInstallResult,
  DEFAULT_CLAUDE_CODE_HOOK_COMMAND,
  installClaudeCodeHook,
  uninstallClaudeCodeHook,
} from './hosts/claude-code-install.js';
export { geminiHook } from './hosts/gemini-hook.js';
export {
  DEFAULT_HOOK_TASK,
  type HookInputReading,
  type HookSessionDefaults,
  type HostHook,
  type HostName,
} from './hosts/host-hook.js';
export { HOST_HOOKS } from './hosts/host-hooks.js';
export { runHostHook } from './hosts/run-host-hook.js';
export { canonicalSha256 } from './pack/canonical-sha256.js';
export {
  loadToolGatePack,
  TOOL_GATE_PACK,
  TOOL_GATE_PACK_NAME,
  type ToolGatePack,
  type ToolGatePackDefinition,
  type ToolGatePackInput,
  toolGatePackSchema,
} from './pack/tool-gate-pack.js';
export {
  TOOL_GATE_DISPOSITIONS,
  TOOL_GATE_QUESTIONS,
  type ToolGateDisposition,
  type ToolGateQuestionId,
} from './pack/tool-gate-questions.js';
export {
  DEFAULT_TOOL_GATE_THRESHOLDS,
  resolveToolGateThresholds,
  type ToolGateThresholds,
  type ToolGateThresholdsInput,
  toolGateThresholdsSchema,
} from './pack/tool-gate-thresholds.js';
export { FilePermissionManager } from './permission/file-permission-manager.js';
export type {
  PermissionManager,
  RememberedDecision,
  RememberedPermission,
} from './permission/permission-manager.js';
export { readClaudeSettingsPolicy, readPolicyFile } from './policy/claude-settings-policy.js';
export { type PermissionRule, parsePermissionRule } from './policy/permission-rule.js';
export {
  commandMatches,
  fetchMatches,
  grantCovers,
  pathMatches,
  type RuleMatchContext,
  ruleCoversTool,
  ruleMatchesCall,
} from './policy/permission-rule-match.js';
export { type ShellSegmenter, type ShellSegments, segmentShellCommand } from './policy/shell-segments.js';
export {
  StaticPolicy,
  type StaticPolicyMatch,
  type StaticPolicyOptions,
  type StaticPolicyRules,
  type ToolCallContext,
} from './policy/static-policy.js';
export { type ToolCallView, viewToolCall } from './policy/tool-call-view.js';
export {
  createToolGate,
  type ToolGate,
  type ToolGateDecisionClient,
  type ToolGateOptions,
} from './tool-gate.js';
export { type ToolGateState, type ToolGateStateInput, toolGateStateSchema } from './tool-gate-state.js';
export type { ToolGateMode, ToolGateVerdict } from './tool-gate-verdict.js';
