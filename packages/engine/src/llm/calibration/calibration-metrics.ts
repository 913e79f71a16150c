import type { CalibrationSample } from './calibration-sample.js';

export interface ReliabilityBin {
  /** Lower edge of the bin's confidence range [lower, lower + 1/bins). */
  readonly lower: number;
  readonly count: number;
  /** Mean top-label confidence in the bin (NaN when empty). */
  readonly confidence: number;
  /** Share of the bin's samples whose top label was right (NaN when empty). */
  readonly accuracy: number;
}

export interface CalibrationMetrics {
  /** Expected calibration error: Σ_b (n_b / N) · |accuracy_b − confidence_b| over top-label confidence bins. */
  readonly ece: number;
  /** Mean over samples of Σ_k (p_k − y_k)² (multi-class form; for Noul twice the binary (p − y)²). */
  readonly brier: number;
  /** Mean negative log-likelihood of the right outcome (probabilities floored at 1e-6). */
  readonly logLoss: number;
  readonly bins: readonly ReliabilityBin[];
}

export function calibrationMetrics(samples: readonly CalibrationSample[], binCount = 10): CalibrationMetrics {
  const sums = Array.from({ length: binCount }, () => ({ count: 0, confidence: 0, correct: 0 }));
  let brier = 0;
  let logLoss = 0;
  for (const { probabilities, expected } of samples) {
    let top = 0;
    probabilities.forEach((p, k) => {
      if (p > probabilities[top]!) top = k;
      brier += (p - (k === expected ? 1 : 0)) ** 2;
    });
    logLoss -= Math.log(Math.max(probabilities[expected] ?? 0, 1e-6));
    const confidence = probabilities[top]!;
    const bin = sums[Math.min(binCount - 1, Math.floor(confidence * binCount))]!;
    bin.count += 1;
    bin.confidence += confidence;
    bin.correct += top === expected ? 1 : 0;
  }
  const total = samples.length;
  const bins = sums.map((bin, index) => ({
    lower: index / binCount,
    count: bin.count,
    confidence: bin.confidence / bin.count,
    accuracy: bin.correct / bin.count,
  }));
  const ece = bins.reduce(
    (sum, bin) =>
      bin.count === 0 ? sum : sum + (bin.count / total) * Math.abs(bin.accuracy - bin.confidence),
    0,
  );
  return { ece, brier: brier / total, logLoss: logLoss / total, bins };
}
