import type { CalibrationSample } from './calibration-sample.js';

/** Probabilities are floored here inside the loss, so an outcome read as impossible cannot make it infinite. */
const PROBABILITY_FLOOR = 1e-6;
export const TEMPERATURE_RANGE = { min: 0.05, max: 20 } as const;

/**
 * Mean negative log-likelihood of the right outcomes after temperature scaling, q ∝ p^(1/T).
 * As a function of β = 1/T it is convex (log-sum-exp of lines minus a line), hence unimodal in T.
 */
export function temperatureLogLoss(samples: readonly CalibrationSample[], temperature: number): number {
  let loss = 0;
  for (const sample of samples) {
    const logits = sample.probabilities.map((p) => Math.log(Math.max(p, PROBABILITY_FLOOR)) / temperature);
    const peak = Math.max(...logits);
    const logNormaliser = peak + Math.log(logits.reduce((sum, logit) => sum + Math.exp(logit - peak), 0));
    loss += logNormaliser - logits[sample.expected]!;
  }
  return loss / samples.length;
}

/**
 * The temperature that minimises log loss, by golden-section search over ln T in [0.05, 20]. Unimodality
 * (see `temperatureLogLoss`) is all golden-section search needs; 80 steps shrink the bracket below 1e-15.
 */
export function fitTemperature(samples: readonly CalibrationSample[]): number {
  if (samples.length === 0) throw new RangeError('fitting a temperature needs at least one labelled sample');
  const loss = (logT: number) => temperatureLogLoss(samples, Math.exp(logT));
  const ratio = (Math.sqrt(5) - 1) / 2;
  let low = Math.log(TEMPERATURE_RANGE.min);
  let high = Math.log(TEMPERATURE_RANGE.max);
  let left = high - ratio * (high - low);
  let right = low + ratio * (high - low);
  let leftLoss = loss(left);
  let rightLoss = loss(right);
  for (let step = 0; step < 80 && high - low > 1e-12; step += 1) {
    if (leftLoss <= rightLoss) {
      high = right;
      right = left;
      rightLoss = leftLoss;
      left = high - ratio * (high - low);
      leftLoss = loss(left);
    } else {
      low = left;
      left = right;
      leftLoss = rightLoss;
      right = low + ratio * (high - low);
      rightLoss = loss(right);
    }
  }
  return Math.exp((low + high) / 2);
}
