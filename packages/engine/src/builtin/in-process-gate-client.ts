import { createInProcessTransport, DecisionClient } from '@arbiter/decision';
import { BUILTIN_MODELS } from '../catalog/builtin-models.js';
import { createBuiltinEngine } from './builtin-engine.js';
import { toolGateAnalyser } from './tool-call/index.js';

export interface InProcessGateClientOptions {
  /** Wall-time budget of one verdict; the decision client's default when absent. */
  readonly budgetMs?: number;
}

/**
 * The decision client a tool gate asks when no server is named: the built-in engine with the tool-call
 * analysers, in this process. Nothing leaves the process, and the analysers must see a secret in a
 * command to recognise its exfiltration, so the state is not redacted (audit logs keep only a hash).
 */
export function createInProcessGateClient(options: InProcessGateClientOptions = {}): DecisionClient {
  const engine = createBuiltinEngine({ analysers: [toolGateAnalyser] });
  return new DecisionClient({
    transport: createInProcessTransport({ engine, model: BUILTIN_MODELS[0]?.name ?? engine.engineId }),
    redact: false,
    ...(options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs }),
  });
}
