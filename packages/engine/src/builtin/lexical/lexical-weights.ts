/**
 * Weights of the built-in engine's log-linear evidence, fitted by `bench/lexical-fit.mjs` on the
 * tune half of the development suite (`bench/lexical-dev/`) to maximise mean accuracy, then the
 * sharpness by log-loss so that confidences match accuracy. The held-out half is never fitted.
 * The polarity weights are set, not fitted (see the script).
 *
 * Two confidences are fitted by log-loss on real development data too, since the hand-written
 * suite's clean sentences made them overconfident on real text: `claimValence` on the suite's
 * sentiment and urgency claims plus the SST-2 development split and the customer-review set, and
 * `scoreSharpness` on the suite's sentiment scores plus the SST-5 development split, and the
 * Choice `sharpness` with `answerKind` on the suite's Choice sets plus the BANKING77 training file,
 * the CLINC150 validation split, SST-2 dev and the customer-review set
 * (bench/lexical-dev/README.md). The test splits, on which docs/benchmarks.md reports, are never
 * fitted.
 */
export interface LexicalWeights {
  /** BM25 overlap of stemmed terms. */
  readonly lexical: number;
  /** Coverage of a candidate's words by the state's, in vector space. */
  readonly coverage: number;
  /** Cosine of the weighted mean vectors. */
  readonly similarity: number;
  /** Squared distance between the state's valence and a candidate's. */
  readonly valence: number;
  /** A label's valence is its text's times this ("positive" alone is a mild text, a strong label). */
  readonly labelValenceScale: number;
  /** Softmax inverse temperature over candidates. */
  readonly sharpness: number;
  /** Softmax inverse temperature over a Score's levels. */
  readonly scoreSharpness: number;
  /** Noul: logit per unit of coverage of the claim by the state, and the coverage that is neutral. */
  readonly claimCoverage: number;
  readonly claimCoverageBias: number;
  /** Noul: logit per unit of state valence when the claim carries valence. */
  readonly claimValence: number;
  /** Entailment: coverage of the hypothesis by the premise, and the coverage that is neutral. */
  readonly entailmentCoverage: number;
  readonly entailmentCoverageBias: number;
  /** Entailment: a polarity difference against entailment and for contradiction. */
  readonly entailmentPolarity: number;
  readonly contradictionPolarity: number;
  readonly contradictionCoverage: number;
  /** Question type: log-weight for an option naming the kind of answer the question asks for. */
  readonly answerKind: number;
  /** Question type: the factor on the other evidence (the question's topic says little). */
  readonly topicUnderAnswerKind: number;
}

export const LEXICAL_WEIGHTS: LexicalWeights = {
  lexical: 1.75,
  coverage: 3,
  similarity: 1.3,
  valence: 1.5,
  labelValenceScale: 1.6,
  sharpness: 2,
  scoreSharpness: 0.5,
  claimCoverage: 10.6,
  claimCoverageBias: 0.4,
  claimValence: 2.5,
  entailmentCoverage: 10.6,
  entailmentCoverageBias: 0.7,
  entailmentPolarity: 2,
  contradictionPolarity: 2,
  contradictionCoverage: 2.66,
  answerKind: 1.5,
  topicUnderAnswerKind: 0.3,
};
