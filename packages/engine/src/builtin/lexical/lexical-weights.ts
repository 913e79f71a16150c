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
 * (bench/lexical-dev/README.md). The hostility weights are fitted by log-loss on the validation
 * splits of TweetEval's offensive and hate sets together. The urgency weights are set, not fitted
 * (no public labelled set of urgency was found): one cue of failure or of pressure each outweighs the
 * prior, and a cue that it can wait outweighs one of pressure. The test splits, on which
 * docs/benchmarks.md reports, are never fitted.
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
  /** Noul, a claim of hostility: logit per hostile word, for one aimed at someone, and the prior. */
  readonly hostileWord: number;
  readonly hostileTargeted: number;
  readonly hostilityBias: number;
  /** Noul, a claim of urgency: logit per cue of failure, of reach (with a failure), of pressure, of calm; the prior. */
  readonly urgencyFailure: number;
  readonly urgencyImpact: number;
  readonly urgencyPressure: number;
  readonly urgencyCalm: number;
  readonly urgencyBias: number;
  /** Score on a scale of severity: how tightly the levels gather around the state's position. */
  readonly severitySpread: number;
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
  hostileWord: 0.2,
  hostileTargeted: 1.1,
  hostilityBias: 0.9,
  urgencyFailure: 1.2,
  urgencyImpact: 0.6,
  urgencyPressure: 0.9,
  urgencyCalm: 1.2,
  urgencyBias: 1.3,
  severitySpread: 1,
};
