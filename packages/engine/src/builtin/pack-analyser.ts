import type { EvaluateOptions, EvaluateResult } from '@arbiter/decision';

/**
 * A deterministic analyser that answers the questions of one decision pack from real
 * analysis of the state (the tool-gate analysers are the first). The built-in engine routes
 * a request to the analyser whose `packName` the request's `pack` member names; every other
 * request goes to the conservative lexical evaluator.
 */
export interface PackAnalyser {
  readonly packName: string;
  /** True when this analyser can answer every question in the request (ids and types). */
  accepts(options: EvaluateOptions): boolean;
  evaluate(options: EvaluateOptions): EvaluateResult | Promise<EvaluateResult>;
}
