/**
 * Temperature scaling of a discrete distribution: p_i ∝ p_i^(1/T), the same as dividing the
 * log-probabilities by T before the softmax. T > 1 softens, T < 1 sharpens; zero stays zero.
 */
export function applyTemperature(probabilities: readonly number[], temperature: number): number[] {
  if (temperature === 1) return [...probabilities];
  const scaled = probabilities.map((p) => (p > 0 ? Math.exp(Math.log(p) / temperature) : 0));
  const total = scaled.reduce((sum, value) => sum + value, 0);
  return total > 0 ? scaled.map((value) => value / total) : scaled;
}
