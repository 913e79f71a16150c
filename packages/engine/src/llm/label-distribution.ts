/** One entry of `choices[0].logprobs.content[0].top_logprobs` in the chat-completions wire format. */
export interface TokenLogprob {
  readonly token: string;
  readonly logprob: number;
}

export interface LabelDistribution {
  /** Probability of each label, renormalised over the valid labels (sums to 1 when coverage > 0). */
  readonly probabilities: number[];
  /** Share of the model's next-token probability that landed on a valid label (0…1). */
  readonly coverage: number;
}

// Leading/trailing whitespace and the space/newline markers of byte-level BPE (Ġ, Ċ) and SentencePiece (▁)
// tokenizers, as some servers report raw vocabulary strings instead of decoded text.
const SPELLING_NOISE = /^[\s\u0120\u010a\u2581]+|[\s\u0120\u010a\u2581]+$/gu;

/** The canonical spelling a token counts for: `" Yes"`, `"YES"`, `"Ġyes"` and `"▁yes"` all read as `yes`. */
export function canonicalLabelSpelling(token: string): string {
  return token.replace(SPELLING_NOISE, '').toLowerCase();
}

/**
 * Sums every spelling variant of each label in the reported top tokens, then renormalises over the labels.
 * Mass outside the reported tokens is unknown, so coverage is the label mass actually seen: a lower bound.
 */
export function readLabelDistribution(
  topLogprobs: readonly TokenLogprob[],
  labels: readonly string[],
): LabelDistribution {
  const indexBySpelling = new Map<string, number>();
  labels.forEach((label, index) => {
    indexBySpelling.set(canonicalLabelSpelling(label), index);
  });
  const mass = labels.map(() => 0);
  for (const entry of topLogprobs) {
    const index = indexBySpelling.get(canonicalLabelSpelling(entry.token));
    if (index !== undefined) mass[index]! += Math.exp(entry.logprob);
  }
  const total = mass.reduce((sum, value) => sum + value, 0);
  return {
    probabilities: total > 0 ? mass.map((value) => value / total) : mass,
    coverage: Math.min(1, total),
  };
}
