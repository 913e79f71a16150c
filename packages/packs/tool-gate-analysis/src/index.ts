export { analyseToolCall, analyseToolCallSync, type ToolCallAnalysis } from './analyse-tool-call.js';
export { loadBashParser } from './bash-parser.js';
export { explainToolCall, explainToolCallSync, formatToolCallAnalysis } from './explain-tool-call.js';
export type { Finding } from './finding.js';
export type { SecondOpinion } from './second-opinion.js';
export {
  type CanonicalTool,
  canonicalTool,
  type ToolCallState,
  toolCallStateSchema,
} from './tool-call-state.js';
export {
  createToolGateAnalyser,
  TOOL_GATE_ENGINE_ID,
  TOOL_GATE_PACK_NAME,
  toolGateAnalyser,
} from './tool-gate-analyser.js';
export type { NoulFigure, ToolGateAnswers } from './tool-gate-answers.js';
