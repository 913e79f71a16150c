/**
 * The `@arbiter/engine/builtin` entry: the built-in engine without the catalog, the LLM engine or
 * calibration. Hosts call `arbiter gate hook` on every tool call, so what this entry loads is paid
 * for on each one. Pack analysers (the tool gate's is `@arbiter/tool-gate-analysis`) are given to
 * `createBuiltinEngine`, never built in.
 */

export type { PackAnalyser } from '@arbiter/decision';
export { BUILTIN_MODELS } from '../catalog/builtin-models.js';
export { type BuiltinEngineOptions, createBuiltinEngine } from './builtin-engine.js';
export { createInProcessGateClient, type InProcessGateClientOptions } from './in-process-gate-client.js';
