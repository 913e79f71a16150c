/**
 * Confidence of a distribution over `n` outcomes: `1 − H(p) / ln n`, one minus the normalised
 * Shannon entropy. 0 for the uniform distribution (no information), 1 when all mass is on one
 * outcome. A single-outcome question is certain by construction, so its confidence is 1.
 */
export function normalisedEntropyConfidence(probabilities: readonly number[]): number {
  const outcomes = probabilities.length;
  if (outcomes <= 1) return 1;
  let entropy = 0;
  for (const probability of probabilities) {
    if (probability > 0) entropy -= probability * Math.log(probability);
  }
  const confidence = 1 - entropy / Math.log(outcomes);
  // Floating error can land a hair outside [0, 1]; the wire schema does not allow that.
  return Math.min(1, Math.max(0, confidence));
}
