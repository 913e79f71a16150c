import { createInProcessTransport, DecisionClient, type PackAnalyser } from '@arbiter/decision';
import { BUILTIN_MODELS } from '../catalog/builtin-models.js';
import { createBuiltinEngine } from './builtin-engine.js';

export interface InProcessGateClientOptions {
  /** The tool gate's analysis (`createToolGateAnalyser(thresholds)` of `@arbiter/tool-gate-analysis`). */
  readonly analyser: PackAnalyser;
  /** Wall-time budget of one verdict; the decision client's default when absent. */
  readonly budgetMs?: number;
}

/**
 * The decision client a tool gate asks when no server is named: the built-in engine with the gate's
 * analysis, in this process. Nothing leaves the process, and the analysis must see a secret in a
 * command to recognise its exfiltration, so the state is not redacted (audit logs keep only a hash).
 */
export function createInProcessGateClient(options: InProcessGateClientOptions): DecisionClient {
  const engine = createBuiltinEngine({ analysers: [options.analyser] });
  return new DecisionClient({
    transport: createInProcessTransport({ engine, model: BUILTIN_MODELS[0]?.name ?? engine.engineId }),
    redact: false,
    ...(options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs }),
  });
}
