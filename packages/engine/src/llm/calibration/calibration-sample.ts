/** One labelled prediction: the model's distribution over a question's outcomes and the right outcome. */
export interface CalibrationSample {
  readonly probabilities: readonly number[];
  /** Index of the correct outcome in `probabilities`. */
  readonly expected: number;
}
