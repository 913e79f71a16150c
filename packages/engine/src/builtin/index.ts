/**
 * The `@arbiter/engine/builtin` entry: the built-in engine and its tool-call analysers without the
 * catalog, the LLM engine or calibration. Hosts call `arbiter gate hook` on every tool call, so what
 * this entry loads is paid for on each one.
 */
export { BUILTIN_MODELS } from '../catalog/builtin-models.js';
export { type BuiltinEngineOptions, createBuiltinEngine } from './builtin-engine.js';
export { createInProcessGateClient, type InProcessGateClientOptions } from './in-process-gate-client.js';
export type { PackAnalyser } from './pack-analyser.js';
export {
  analyseToolCall,
  createToolGateAnalyser,
  explainToolCall,
  TOOL_GATE_PACK_NAME,
  toolGateAnalyser,
} from './tool-call/index.js';
