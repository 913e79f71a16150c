import { createInProcessTransport, DecisionClient } from '@arbiter/decision';
import { BUILTIN_MODELS, createBuiltinEngine, toolGateAnalyser } from '@arbiter/engine/builtin';
import type { ToolGateDecisionClient } from '@arbiter/tool-gate';

/**
 * The decision client the server's gate asks: the built-in engine with the tool-call analysers, in
 * this process. Nothing leaves the process, and the analysers must see a secret in a command to
 * recognise its exfiltration, so the state is not redacted here (the audit log keeps only a hash).
 */
export function createInProcessGateClient(): ToolGateDecisionClient {
  const engine = createBuiltinEngine({ analysers: [toolGateAnalyser] });
  return new DecisionClient({
    transport: createInProcessTransport({ engine, model: BUILTIN_MODELS[0]?.name ?? engine.engineId }),
    redact: false,
  });
}
