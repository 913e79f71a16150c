import type { State } from '@arbiter/decision';
import { wordsOf } from './semantic-text.js';

/**
 * Textual entailment from word vectors, the classic lexical baselines of the RTE challenges
 * (Dagan et al., 2005; MacCartney, 2009): a hypothesis whose content words are all covered by the
 * premise tends to follow from it, and a hypothesis whose polarity differs from the premise's
 * (one negated, the other not) tends to contradict it.
 */
export interface PremiseAndHypothesis {
  readonly premise: string;
  readonly hypothesis: string;
}

export type EntailmentRole = 'entailment' | 'neutral' | 'contradiction';

const PREMISE_KEY = /^(premise|sentence_?1|text|context|passage|source|evidence)$/i;
const HYPOTHESIS_KEY = /^(hypothesis|sentence_?2|claim|statement|conclusion)$/i;
const LABELLED_LINE = /(?:^|\n)\s*(premise|hypothesis|sentence ?[12]|text|claim)\s*:\s*/gi;

/**
 * The premise and hypothesis of a state, when it is made of two named texts: an object with
 * premise-like and hypothesis-like keys (or exactly two strings), or a text labelled
 * "Premise: … Hypothesis: …".
 */
export function premiseAndHypothesisOf(state: State): PremiseAndHypothesis | undefined {
  if (typeof state === 'object' && state !== null && !Array.isArray(state)) {
    const entries = Object.entries(state).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    );
    const premise = entries.find(([key]) => PREMISE_KEY.test(key));
    const hypothesis = entries.find(([key]) => HYPOTHESIS_KEY.test(key));
    if (premise && hypothesis) return { premise: premise[1], hypothesis: hypothesis[1] };
    if (entries.length === 2) return { premise: entries[0]![1], hypothesis: entries[1]![1] };
    return undefined;
  }
  if (typeof state !== 'string') return undefined;
  const parts = [...state.matchAll(LABELLED_LINE)];
  if (parts.length !== 2) return undefined;
  const [first, second] = parts as [RegExpExecArray, RegExpExecArray];
  const premise = state.slice(first.index + first[0].length, second.index).trim();
  const hypothesis = state.slice(second.index + second[0].length).trim();
  return premise && hypothesis ? { premise, hypothesis } : undefined;
}

const ENTAILMENT_WORDS = /\b(entail\w*|impl(?:y|ies|ied)|follows?|inferr?\w*|support\w*|consistent)\b/i;
const CONTRADICTION_WORDS = /\b(contradict\w*|inconsistent|refut\w*|conflict\w*)\b/i;
const NEUTRAL_WORDS =
  /\b(neutral|unknown|undetermined|undecided|unrelated|neither|cannot be determined|not enough)\b/i;
const NEGATED = /\b(not|no|non|never)\b[\s_-]*/i;

/** Asking whether the hypothesis is true, or false, of a premise is asking about entailment. */
const TRUE_WORDS = /\b(true|correct|accurate|valid|holds?)\b/i;
const FALSE_WORDS = /\b(false|untrue|incorrect|wrong)\b/i;

/**
 * What a question (instructions) asks, when it asks about entailment at all. Read only for a state
 * made of a premise and a hypothesis, where "is the hypothesis true given the premise?" asks
 * whether the premise entails it.
 */
export function entailmentQuestionOf(text: string): EntailmentRole | undefined {
  if (CONTRADICTION_WORDS.test(text) || FALSE_WORDS.test(text)) return 'contradiction';
  if (ENTAILMENT_WORDS.test(text) || TRUE_WORDS.test(text)) return 'entailment';
  return undefined;
}

/**
 * The role an option stands for, from its name and description: `entailment`, `contradiction`,
 * `neutral`, and "not entailment" read as neutral (everything but entailment).
 */
export function entailmentRoleOf(text: string): EntailmentRole | undefined {
  const spaced = text.replace(/[_-]+/g, ' ');
  if (NEUTRAL_WORDS.test(spaced)) return 'neutral';
  if (CONTRADICTION_WORDS.test(spaced)) return 'contradiction';
  if (ENTAILMENT_WORDS.test(spaced)) return NEGATED.test(spaced) ? 'neutral' : 'entailment';
  return undefined;
}

const NEGATION_WORDS: ReadonlySet<string> = new Set(
  'not no never nobody nothing none neither nor nowhere cannot without'.split(' '),
);

/** Whether one text is negated and the other is not (by the parity of their negations). */
export function polarityDiffers(premise: string, hypothesis: string): boolean {
  const negations = (text: string) => wordsOf(text).filter((word) => NEGATION_WORDS.has(word)).length % 2;
  return negations(premise) !== negations(hypothesis);
}
