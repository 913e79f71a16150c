import type {
  Answer,
  DecisionEngine,
  EvaluateOptions,
  EvaluateResult,
  PackAnalyser,
} from '@arbiter/decision';
import { calibrateAnswer, type EngineCalibration } from '../calibrated-engine.js';
import { estimateTokens } from '../token-estimate.js';
import { BUILTIN_CALIBRATION } from './lexical/builtin-calibration.js';
import { evaluateLexically, readState } from './lexical/lexical-evaluator.js';
import { loadedWordVectors, loadWordVectors, type WordVectors } from './lexical/word-vectors.js';

export interface BuiltinEngineOptions {
  /** Analysers for decision packs; a request naming one of their packs is routed to it. */
  analysers?: readonly PackAnalyser[];
  /**
   * Temperatures applied to the lexical evaluator's answers (never to a pack analyser's verdicts,
   * whose thresholds are set on the analyser's own scale). Default: `BUILTIN_CALIBRATION`, fitted
   * on the tune half of the development suite; `{}` leaves the evaluator's answers as they are.
   */
  calibration?: EngineCalibration;
}

/**
 * The built-in engine: deterministic, no model, no network. A request whose `pack.name` names an
 * analyser that accepts it is answered by that analyser; every other request by the conservative
 * lexical evaluator (word vectors, valence, entailment cues and word overlap).
 *
 * @example
 * const engine = createBuiltinEngine({ analysers: [createToolGateAnalyser(pack.thresholds)] });
 * const { answers } = await engine.evaluate({ state, questions });
 */
export function createBuiltinEngine(options: BuiltinEngineOptions = {}): DecisionEngine {
  const analysers = options.analysers ?? [];
  const calibration = options.calibration ?? BUILTIN_CALIBRATION;
  return {
    specificationVersion: 'v1',
    engineId: 'builtin',
    // Evaluation is synchronous, so there is nothing for `signal` to stop and it is not read.
    async evaluate(request: EvaluateOptions): Promise<EvaluateResult> {
      if (request.pack) {
        const packName = request.pack.name;
        const analyser = analysers.find(
          (candidate) => candidate.packName === packName && candidate.accepts(request),
        );
        if (analyser) return analyser.evaluate(request);
      }
      // The word vectors load on the first question that needs them, then stay in memory.
      const vectors = loadedWordVectors() ?? (await loadWordVectors());
      return evaluateWithLexicalEvidence(request, vectors, calibration);
    },
  };
}

function evaluateWithLexicalEvidence(
  request: EvaluateOptions,
  vectors: WordVectors,
  calibration: EngineCalibration,
): EvaluateResult {
  const reading = readState(request.state, vectors);
  // Each answer formed from evidence is calibrated before others are derived from it (the parts
  // of a compound claim, the Noul of a yes/no Score), so derived answers keep their laws.
  const calibrate = (answer: Answer, questionKind?: string) =>
    calibrateAnswer(answer, calibration, questionKind);
  // The state is read once; each question's own text once more (documented in docs/api.md).
  let inputTokens = estimateTokens(request.state);
  const entries = Object.entries(request.questions).map(([id, question]) => {
    inputTokens += estimateTokens(question);
    return [id, evaluateLexically(reading, question, calibrate)] as const;
  });
  // fromEntries defines own properties, so a question id such as `__proto__` stays a question id.
  return { answers: Object.fromEntries(entries), usage: { input_tokens: inputTokens, output_tokens: 0 } };
}
