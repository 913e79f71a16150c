/**
 * What a question asks about two texts of a state, besides entailment (`entailment-cues.ts`):
 * whether they say the same thing (paraphrase, duplicate, same meaning), or whether the second
 * answers the first (a question and a candidate answer). The relation is judged from how the texts
 * align with each other, never from the words of either alone.
 */
export type TextRelation = 'paraphrase' | 'answer';

const PARAPHRASE_WORDS =
  /\b(paraphras\w*|rephras\w*|restat\w*|duplicates?|equivalent|synonymous|same (?:meaning|thing|question|idea)|mean(?:s)? the same|say(?:s)? the same|semantically)\b/i;
const ANSWER_WORDS = /\b(answers?|answered|respond\w*|response|repl(?:y|ies))\b/i;

export function textRelationOf(instructions: string): TextRelation | undefined {
  if (PARAPHRASE_WORDS.test(instructions)) return 'paraphrase';
  if (ANSWER_WORDS.test(instructions)) return 'answer';
  return undefined;
}
