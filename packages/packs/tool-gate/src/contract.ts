/**
 * The `@arbiter/tool-gate/contract` entry: what an engine needs to answer the pack (name,
 * question ids and types, disposition options, the state schema and the thresholds), without
 * the hosts, the audit log or the composition.
 */
export {
  TOOL_GATE_DISPOSITION_OPTIONS,
  TOOL_GATE_PACK_NAME,
  TOOL_GATE_QUESTION_TYPES,
  type ToolGateQuestionId,
} from './pack/tool-gate-contract.js';
export {
  DEFAULT_TOOL_GATE_THRESHOLDS,
  resolveToolGateThresholds,
  type ToolGateThresholds,
  type ToolGateThresholdsInput,
  toolGateThresholdsSchema,
} from './pack/tool-gate-thresholds.js';
export { type ToolGateState, type ToolGateStateInput, toolGateStateSchema } from './tool-gate-state.js';
