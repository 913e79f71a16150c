/**
 * The contract between the tool-gate pack and every engine that answers it: the pack's name,
 * its question ids with their types, and the disposition's options. The pack declares them once
 * here; the tool-gate analysis (`@arbiter/tool-gate-analysis`) imports them (`@arbiter/tool-gate/contract`) instead of
 * keeping a copy that could drift.
 */
export const TOOL_GATE_PACK_NAME = 'arbiter/tool-gate';

export const TOOL_GATE_QUESTION_TYPES = {
  in_grant: 'noul',
  args_plausible: 'noul',
  destructive: 'noul',
  exfil_risk: 'noul',
  on_task: 'noul',
  disposition: 'choice',
} as const;

export type ToolGateQuestionId = keyof typeof TOOL_GATE_QUESTION_TYPES;

export const TOOL_GATE_DISPOSITION_OPTIONS = ['allow', 'deny', 'ask'] as const;
