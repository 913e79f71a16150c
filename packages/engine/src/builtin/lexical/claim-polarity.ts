/**
 * The polarity of a claim stated as a question or a sentence: "Is the meeting not on Tuesday?" is
 * the negation of "Is the meeting on Tuesday?", so its probability is one minus the other's. The
 * engine answers the positive claim and derives the negated one, rather than evaluating both: word
 * evidence cannot see a "not" (it is a stop word, and word vectors put "not X" next to "X"), so
 * evaluating them separately gave both the same answer.
 *
 * Only explicit sentential negation counts: `not`, `n't` and `never`. "No", "without" or "nothing"
 * often negate a noun phrase rather than the claim ("Does it run without errors?" is not the
 * negation of "Does it run errors?"), so they are left to the evidence.
 */
export interface ClaimPolarity {
  /** The claim with its negations removed. */
  readonly positive: string;
  /** True when the claim had an odd number of negations. */
  readonly negated: boolean;
}

const NEGATION = /\s*\b(?:not|never)\b|n['’]t\b/gi;
/** Contractions whose stem changes when `n't` goes: "won't" is "will", "can't" is "can". */
const IRREGULAR: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bwon['’]t\b/gi, 'will not'],
  [/\bcan['’]t\b/gi, 'can not'],
  [/\bcannot\b/gi, 'can not'],
  [/\bshan['’]t\b/gi, 'shall not'],
];

export function claimPolarityOf(claim: string): ClaimPolarity {
  let text = claim;
  for (const [pattern, replacement] of IRREGULAR) text = text.replace(pattern, replacement);
  const negations = text.match(NEGATION)?.length ?? 0;
  if (negations === 0) return { positive: claim, negated: false };
  return {
    positive: text
      .replace(NEGATION, '')
      .replace(/\s{2,}/g, ' ')
      .trim(),
    negated: negations % 2 === 1,
  };
}
