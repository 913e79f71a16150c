import type { DecisionEngine } from '@arbiter/decision';
import type { EngineAvailability } from './availability-probe.js';

interface ProbedEngine extends DecisionEngine {
  checkAvailability(): Promise<EngineAvailability>;
}

function isProbed(engine: DecisionEngine): engine is ProbedEngine {
  return typeof (engine as Partial<ProbedEngine>).checkAvailability === 'function';
}

/**
 * Availability of any catalog engine, for `GET /v1/models`: engines that depend on a server (the
 * openai-compatible engine) are probed, cached; in-process engines (the built-in one) always answer.
 */
export function checkEngineAvailability(engine: DecisionEngine): Promise<EngineAvailability> {
  return isProbed(engine)
    ? engine.checkAvailability()
    : Promise.resolve({ available: true, checkedAt: Date.now() });
}
