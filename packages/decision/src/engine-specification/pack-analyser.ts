import type { EvaluateOptions, EvaluateResult } from './decision-engine.js';

/**
 * A deterministic analyser that answers the questions of one decision pack from real
 * analysis of the state (the tool-gate analysis, `@arbiter/tool-gate-analysis`, is the first).
 * The built-in engine routes a request to the analyser whose `packName` the request's `pack`
 * member names; every other request goes to the conservative lexical evaluator. The type lives
 * beside the engine specification so that a pack's analysis and the engine that runs it both
 * depend on it, and neither on the other.
 */
export interface PackAnalyser {
  readonly packName: string;
  /** True when this analyser can answer every question in the request (ids and types). */
  accepts(options: EvaluateOptions): boolean;
  evaluate(options: EvaluateOptions): EvaluateResult | Promise<EvaluateResult>;
}
