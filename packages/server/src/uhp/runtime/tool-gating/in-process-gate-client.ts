import { createInProcessTransport, DecisionClient } from '@arbiter/decision';
import { BUILTIN_MODELS, createBuiltinEngine } from '@arbiter/engine/builtin';
import type { ToolGateDecisionClient, ToolGateThresholds } from '@arbiter/tool-gate';
import { createToolGateAnalyser } from '@arbiter/tool-gate-analysis';

/**
 * The decision client the server's gate asks: the built-in engine with the tool-gate analysis, in
 * this process, at the thresholds the gate composes with (so the engine's disposition and the
 * gate's composition draw the same lines). Nothing leaves the process, and the analysis must see
 * a secret in a command to recognise its exfiltration, so the state is not redacted here (the
 * audit log keeps only a hash).
 */
export function createInProcessGateClient(thresholds: ToolGateThresholds): ToolGateDecisionClient {
  const engine = createBuiltinEngine({ analysers: [createToolGateAnalyser(thresholds)] });
  return new DecisionClient({
    transport: createInProcessTransport({ engine, model: BUILTIN_MODELS[0]?.name ?? engine.engineId }),
    redact: false,
  });
}
