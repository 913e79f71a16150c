import type { Answer, AnswerMeta, Criterion, Question, State } from '@arbiter/decision';
import { normalisedEntropyConfidence } from '../../answer-confidence.js';
import { choiceKindOf } from '../../evidence-kind.js';
import { NO_EVIDENCE } from '../../no-evidence.js';
import { type AnswerKind, askedKindsOf, kindNamedBy } from './answer-type.js';
import { claimPolarityOf } from './claim-polarity.js';
import { type ClaimForm, claimFormOf } from './claim-structure.js';
import {
  type EntailmentRole,
  entailmentQuestionOf,
  entailmentRoleOf,
  type PremiseAndHypothesis,
  polarityDiffers,
  premiseAndHypothesisOf,
} from './entailment-cues.js';
import { hostilityClaim, hostilityOf } from './hostility.js';
import { levelOrderOf } from './level-order.js';
import { LEXICAL_WEIGHTS, type LexicalWeights } from './lexical-weights.js';
import {
  align,
  coverage,
  meanSimilarity,
  rarityOf,
  type SemanticText,
  semanticTextOf,
  WordProbes,
  wordsOf,
} from './semantic-text.js';
import { compareValueSets, compareValues, specificValuesOf, type ValueKind } from './specific-values.js';
import { STOP_WORDS } from './stop-words.js';
import { textRelationOf } from './text-relation.js';
import { stem, type TermCounts, termsOf } from './text-terms.js';
import { isSeverityScale, SEVERITY_SCALE, severityDirectionOf, urgencyClaim, urgencyOf } from './urgency.js';
import { type Valence, valencedWordsOf, valenceOf } from './valence.js';
import type { WordVectors } from './word-vectors.js';

/** BM25's term-frequency saturation: the second mention of a word adds less than the first. */
const SATURATION = 1.2;
/**
 * The most log-odds that coverage by meaning alone gives a claim, or a relation between two texts:
 * a state that covers a claim's words is about the claim's topic, which says little about whether
 * the claim holds ("All tests passed" covers "Is the build failing?"). Set by principle, not
 * fitted: at most 0.70 either way, so such an answer never looks like a confident one.
 */
const TOPICAL_LOGIT_LIMIT = 0.85;
/**
 * The most log-odds that coverage gives a relation between two texts (paraphrase, an answer to a
 * question): tighter than a claim's, since nothing about these relations was fitted (no public
 * training split of either is at hand) and texts that share their words are often not paraphrases
 * nor answers. At most 0.60 either way; a difference of negation or of named values adds to it.
 */
const RELATION_LOGIT_LIMIT = 0.4;
/** Log-odds against a claim per specific value (a number, a day, a month) the state contradicts. */
const VALUE_MISMATCH_LOGIT = 2;
/**
 * The cosine two words must reach to count as a semantic match. Post-processed vectors put
 * unrelated words near 0 and related ones at 0.3 and above ("payout" and "billing" 0.35, "bank"
 * and "finance" 0.46; "weather" and "sports" 0.13, "film" and "negative" 0.23); a candidate whose
 * closest pair of words with the state stays below this, with no word in common, has no evidence.
 */
const SEMANTIC_MATCH = 0.25;
/** Most evidence codes named in an answer. */
const MAX_EVIDENCE = 8;
/** Words of a state read for meaning; a longer state is read from its beginning. */
const MAX_STATE_CHARACTERS = 8_000;

export const LEXICAL_ENGINE_NAME = 'builtin';

/** What every question of a request reads from the state, computed once per request. */
export interface StateReading {
  readonly terms: TermCounts;
  readonly text: string;
  readonly meaning: SemanticText;
  readonly valence: Valence;
  readonly pair: PremiseAndHypothesis | undefined;
  readonly vectors: WordVectors;
  readonly weights: LexicalWeights;
}

/**
 * A sentence addressed to whoever answers rather than about the subject: it tells the reader to
 * drop its instructions or claims a system's authority. ("Reply with STOP" is not one: a message
 * telling its human reader what to do is evidence about the message, spam for one.) The state is data
 * (the System One specification's injection rule), so such a sentence is no evidence about the
 * document and is not read; a statement about the subject keeps its words however it is phrased.
 */
const READER_INSTRUCTION =
  /\b(ignore|disregard|forget|override)\b[^.!?\n]{0,60}\b(instructions?|questions?|prompt|rules|previous|above|system)\b|^\W*(system|assistant)\s*(override|prompt|message)?\s*:|\bsystem override\b/i;

function withoutReaderInstructions(text: string): string {
  if (!/\b(ignore|disregard|forget|override|system|assistant)\b/i.test(text)) return text;
  return text
    .split(/(?<=[.!?\n])\s+/)
    .filter((sentence) => !READER_INSTRUCTION.test(sentence))
    .join(' ');
}

export function readState(state: State, vectors: WordVectors, weights = LEXICAL_WEIGHTS): StateReading {
  const text = withoutReaderInstructions(textOf(state)).slice(0, MAX_STATE_CHARACTERS);
  return {
    terms: termsOf(state),
    text,
    meaning: semanticTextOf(vectors, text),
    valence: valenceOf(text),
    pair: premiseAndHypothesisOf(state),
    vectors,
    weights,
  };
}

/** The words of any JSON value: strings and object keys (numbers, booleans and null are not words). */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  const parts: string[] = [];
  const visit = (item: unknown) => {
    if (typeof item === 'string') parts.push(item);
    else if (Array.isArray(item)) item.forEach(visit);
    else if (typeof item === 'object' && item !== null) {
      for (const [key, inner] of Object.entries(item)) {
        parts.push(key);
        visit(inner);
      }
    }
  };
  visit(value);
  return parts.join('\n');
}

interface Candidate {
  readonly text: string;
  readonly meaning: SemanticText;
  /** Its lower-case content words. */
  readonly words: readonly string[];
  /** The candidate's valence in (−1, 1), or 0 when it has none. */
  readonly valence: number;
}

interface Evidence {
  /** Unnormalised log-weights, one per candidate. */
  readonly scores: number[];
  readonly codes: string[];
  readonly abstained: boolean;
}

/**
 * Scores candidates (options, levels) against the state from four kinds of evidence, each a
 * log-linear feature whose weight was fitted on the tune half of the development suite:
 * - meaning: how well the state covers each candidate's words in vector space, and the cosine of
 *   their weighted means (a zero-shot classifier with static word vectors);
 * - words: overlap of their stemmed terms, each weighted by its rarity (exact mentions are strong
 *   evidence);
 * - valence: how close each candidate's valence is to the state's, when the state has one.
 *
 * Each candidate's score depends on the state and that candidate alone, so the softmax over them
 * obeys Luce's choice axiom: removing an option keeps the others' proportions.
 *
 * Scores are log-weights: the topical evidence (meaning and words) times `sharpness`, fitted per
 * question type, less the squared valence distance times `valenceRate` (by default the valence
 * weight at the same sharpness).
 */
function scoreCandidates(
  reading: StateReading,
  candidates: readonly Candidate[],
  {
    sharpness,
    valenceRate = reading.weights.valence * sharpness,
    wordlessIsNeutral = false,
    gateWeakMeaning = true,
  }: {
    sharpness: number;
    valenceRate?: number;
    wordlessIsNeutral?: boolean;
    /** Read a candidate without a semantic match as no evidence (off for a Score's ordered levels, read by valence). */
    gateWeakMeaning?: boolean;
  },
): Evidence {
  const W = reading.weights;
  // On a scale of valence, a state with no valenced word is neutral (valence 0), which is evidence
  // for the middle of the scale; elsewhere it is no valence evidence at all.
  const stateValence =
    reading.valence.words > 0 || wordlessIsNeutral ? reading.valence.normalised : undefined;
  const codes: string[] = [];
  let abstained = true;
  let bestLexical = 0;
  let bestMatched: string[] = [];
  const closest: (readonly [string, string] | undefined)[] = [];
  const scores = candidates.map((candidate) => {
    const lexical = lexicalScore(reading, candidate);
    // Matches saturate like a term's frequency does: a third exact mention adds little certainty.
    let score = (W.lexical * lexical.score) / (lexical.score + 1);
    let valenceLogit = 0;
    if (lexical.matched.length > 0) abstained = false;
    if (lexical.score > bestLexical) {
      bestLexical = lexical.score;
      bestMatched = lexical.matched;
    }
    const { meaning } = candidate;
    if (meaning.surface.size > 0 && reading.meaning.surface.size > 0) {
      const alignment = align(meaning, reading.meaning);
      // Evidence only when some pair of words is close in meaning (or the same word). A candidate
      // with none scores what a candidate of unknown meaning does: no evidence is no evidence, not
      // evidence against (the small cosines of unrelated words are noise). That score depends on
      // the state alone, so Luce's axiom holds, and a set of candidates none of which has evidence
      // gets the uniform distribution.
      const matched =
        alignment.closest !== undefined && (alignment.similarity >= SEMANTIC_MATCH || !gateWeakMeaning);
      if (matched) abstained = false;
      closest.push(matched ? alignment.closest : undefined);
      score +=
        matched || lexical.matched.length > 0
          ? W.coverage * alignment.coverage + W.similarity * meanSimilarity(meaning, reading.meaning)
          : unknownMeaningScore(reading);
    } else {
      closest.push(undefined);
    }
    if (stateValence !== undefined) {
      const target = Math.max(-1, Math.min(1, W.labelValenceScale * candidate.valence));
      valenceLogit = valenceRate * (stateValence - target) ** 2;
    }
    return sharpness * score - valenceLogit;
  });
  if (stateValence !== undefined && candidates.some((candidate) => candidate.valence !== 0)) {
    abstained = false;
    codes.push(`valence:${stateValence.toFixed(2)}`);
  }
  codes.push(...bestMatched.map((term) => `term:${term}`));
  // The closest pair of words between the winning candidate and the state, as the meaning evidence.
  const pair = closest[indexOfMax(scores)];
  if (pair) codes.push(`near:${pair[0]}~${pair[1]}`);
  return { scores, codes: codes.slice(0, MAX_EVIDENCE), abstained };
}

/**
 * Everyday words from unrelated fields: how close such a word comes to a state is what a candidate
 * whose meaning is unknown is assumed to score.
 */
const REFERENCE_WORDS = [
  'house',
  'music',
  'river',
  'market',
  'doctor',
  'game',
  'color',
  'travel',
  'law',
  'computer',
  'food',
  'weather',
  'school',
  'army',
  'film',
  'money',
  'garden',
  'church',
  'car',
  'science',
  'family',
  'sport',
  'book',
  'city',
  'art',
  'energy',
  'phone',
  'history',
  'animal',
  'office',
  'ocean',
  'language',
];
const unknownMeaningScores = new WeakMap<StateReading, number>();

/**
 * The meaning score of a candidate none of whose words the vectors know (`backend`, a code) and
 * the state does not mention: no evidence either way, so the score an everyday word of no
 * particular relation to the state gets, not the zero of a word known to be unrelated. It depends
 * on the state alone, so Luce's axiom still holds.
 */
function unknownMeaningScore(reading: StateReading): number {
  const memo = unknownMeaningScores.get(reading);
  if (memo !== undefined) return memo;
  const W = reading.weights;
  const { meanings, probes } = referenceProbesOf(reading.vectors);
  // Each reference word's `align(meaning, state).coverage`, from cosines remembered per word.
  const coverages = probes.coverages(reading.meaning);
  let total = 0;
  meanings.forEach((meaning, index) => {
    total += W.coverage * coverages[index]! + W.similarity * meanSimilarity(meaning, reading.meaning);
  });
  const score = meanings.length === 0 ? 0 : total / meanings.length;
  unknownMeaningScores.set(reading, score);
  return score;
}

interface ReferenceProbes {
  /** The reference words that have a vector, in `REFERENCE_WORDS` order. */
  readonly meanings: readonly SemanticText[];
  readonly probes: WordProbes;
}

// The reference words are fixed, so their cosines with a state's words are remembered per word
// (WordProbes): a fifth of a built-in request's CPU went into aligning them with every state.
const referenceProbes = new WeakMap<WordVectors, ReferenceProbes>();

function referenceProbesOf(vectors: WordVectors): ReferenceProbes {
  const known = referenceProbes.get(vectors);
  if (known !== undefined) return known;
  const meanings = REFERENCE_WORDS.map((word) => readText(vectors, word).candidate.meaning).filter(
    (meaning) => meaning.words.length > 0,
  );
  const probes: ReferenceProbes = { meanings, probes: new WordProbes(meanings) };
  referenceProbes.set(vectors, probes);
  return probes;
}

/**
 * Overlap of stemmed terms, BM25-style: saturated term frequency in the state times the rarity of
 * the word (its smooth-inverse-frequency weight), so "the card" matters through "card" alone.
 */
function lexicalScore(reading: StateReading, candidate: Candidate): { score: number; matched: string[] } {
  let score = 0;
  const matched: string[] = [];
  for (const word of candidate.words) {
    const term = stem(word);
    const frequency = reading.terms.get(term);
    if (frequency === undefined || matched.includes(term)) continue;
    matched.push(term);
    score += (rarityOf(reading.vectors, word) * frequency) / (frequency + SATURATION);
  }
  return { score, matched };
}

/** Softmax at the fitted sharpness. */
function distribution(scores: readonly number[], sharpness: number): number[] {
  const top = Math.max(...scores);
  const weights = scores.map((score) => Math.exp(sharpness * (score - top)));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => weight / total);
}

function indexOfMax(values: readonly number[]): number {
  let best = 0;
  for (let index = 1; index < values.length; index++) if (values[index]! > values[best]!) best = index;
  return best;
}

function meta(abstained: boolean, codes: readonly string[]): AnswerMeta {
  return {
    engine: LEXICAL_ENGINE_NAME,
    abstained,
    evidence: abstained ? [NO_EVIDENCE] : [...codes],
  };
}

function instructionText(instructions: Question['instructions']): string {
  return textOf(instructions);
}

/** What the evaluator reads from a question's own short text (an option, a level, a claim). */
interface TextReading {
  readonly candidate: Candidate;
  readonly valence: Valence;
  /** The text as a claim about the state: its meaning without the words that name the input. */
  readonly claim: SemanticText;
}

// Option, level and question texts recur request after request, so their readings are memoised
// per vector table in a bounded map (cleared when full), as text-terms does for terms.
const textReadings = new WeakMap<WordVectors, Map<string, TextReading>>();
const TEXT_READING_LIMIT = 5_000;
const MEMOISED_TEXT_LENGTH = 512;

/**
 * Words that frame what someone asks for ("Does the user want to add a song to a playlist?"), not
 * a tone: the lexicon gives "want", "wish" and "please" positive valence, which made a claim about
 * an intent a claim about a feeling whenever the state had valence. On the public development data
 * such claims were judged by valence 0.65 sure at chance.
 */
const REQUEST_WORDS = /\b(want|wants|wanted|wanting|wish|wishes|wished|wishing|please)\b/gi;

function readText(vectors: WordVectors, text: string): TextReading {
  let memo = textReadings.get(vectors);
  if (memo === undefined) {
    memo = new Map();
    textReadings.set(vectors, memo);
  }
  const known = memo.get(text);
  if (known !== undefined) return known;
  const valence = valenceOf(text.replace(REQUEST_WORDS, ' '));
  const words = wordsOf(text).filter((word) => word.length > 1 && !STOP_WORDS.has(word));
  const reading: TextReading = {
    candidate: { text, meaning: semanticTextOf(vectors, text), words, valence: valence.normalised },
    valence,
    claim: semanticTextOf(vectors, text, { dropInputWords: true }),
  };
  if (text.length <= MEMOISED_TEXT_LENGTH) {
    if (memo.size >= TEXT_READING_LIMIT) memo.clear();
    memo.set(text, reading);
  }
  return reading;
}

/**
 * `compute` memoised per text like the readings above: what depends on a question's own short
 * text alone (its claim form, its values, whether it names a scale) is read once, not per request.
 */
function memoisedByText<T>(compute: (text: string) => T): (text: string) => T {
  const memo = new Map<string, T>();
  return (text) => {
    const known = memo.get(text);
    if (known !== undefined) return known;
    const value = compute(text);
    if (text.length <= MEMOISED_TEXT_LENGTH) {
      if (memo.size >= TEXT_READING_LIMIT) memo.clear();
      memo.set(text, value);
    }
    return value;
  };
}

const claimFormOfText = memoisedByText(claimFormOf);
const isSeverityScaleText = memoisedByText(isSeverityScale);
const claimValuesOf = memoisedByText(specificValuesOf);
// Keyed by the levels' texts as JSON, which no two different lists of texts share.
const severityDirectionOfJson = memoisedByText((json) => severityDirectionOf(JSON.parse(json) as string[]));

function severityDirectionOfLevels(levels: readonly string[]): 1 | -1 {
  return severityDirectionOfJson(JSON.stringify(levels));
}
const levelOrderOfJson = memoisedByText((json) => levelOrderOf(JSON.parse(json) as string[]));

function levelOrderOfLevels(levels: readonly string[]): 1 | -1 | 0 {
  return levelOrderOfJson(JSON.stringify(levels));
}

/** The state's specific values, read once per request for every claim that compares with them. */
const stateValues = new WeakMap<StateReading, Map<ValueKind, Set<string>>>();

function stateValuesOf(reading: StateReading): Map<ValueKind, Set<string>> {
  let values = stateValues.get(reading);
  if (values === undefined) {
    values = specificValuesOf(reading.text);
    stateValues.set(reading, values);
  }
  return values;
}

/** Entailment-role log-weights from coverage of the hypothesis by the premise and their polarity. */
function entailmentScores(reading: StateReading, pair: PremiseAndHypothesis): Record<EntailmentRole, number> {
  const W = reading.weights;
  const premise = semanticTextOf(reading.vectors, pair.premise);
  const hypothesis = semanticTextOf(reading.vectors, pair.hypothesis);
  const covered = coverage(hypothesis, premise) - W.entailmentCoverageBias;
  const flipped = polarityDiffers(pair.premise, pair.hypothesis) ? 1 : 0;
  return {
    entailment: W.entailmentCoverage * covered - W.entailmentPolarity * flipped,
    neutral: 0,
    contradiction: W.contradictionPolarity * flipped + W.contradictionCoverage * covered,
  };
}

/** Log-odds bounded smoothly to ±limit: near zero unchanged, saturating towards the limit. */
function bounded(logit: number, limit: number): number {
  return limit * Math.tanh(logit / limit);
}

function evaluateNoul(
  reading: StateReading,
  question: Extract<Question, { type: 'noul' }>,
  calibrate: Calibrate,
): Answer {
  const instructions = instructionText(question.instructions);
  // Structured criteria (objects, arrays) are read as their words, keys included.
  const trueText = textOf(question.criteria?.true ?? '');
  const falseText = textOf(question.criteria?.false ?? '');
  // A question about a pair of texts (entailment, paraphrase, an answer) is one relation, whatever
  // connectives its wording holds.
  const aboutPair =
    reading.pair !== undefined &&
    (entailmentQuestionOf(instructions) !== undefined || textRelationOf(instructions) !== undefined);
  if (!trueText && !falseText && !aboutPair) {
    const { noul, abstained, codes } = evaluateClaimForm(reading, claimFormOfText(instructions), calibrate);
    return noulAnswer(noul, abstained, codes.slice(0, MAX_EVIDENCE));
  }
  return calibrate(evaluatePositiveNoul(reading, instructions, trueText, falseText));
}

interface ClaimAnswer {
  readonly noul: number;
  readonly abstained: boolean;
  readonly codes: readonly string[];
}

/**
 * A claim's probability from its logical form: each simple claim answered once and calibrated,
 * compounds derived from the calibrated parts (claim-structure.ts), so negation and
 * inclusion-exclusion hold whatever the calibration; "Is it not X?" is one minus "Is it X?".
 */
function evaluateClaimForm(reading: StateReading, form: ClaimForm, calibrate: Calibrate): ClaimAnswer {
  switch (form.kind) {
    case 'atom': {
      const polarity = claimPolarityOf(form.text);
      const answer = calibrate(evaluatePositiveNoul(reading, polarity.positive, '', ''));
      const noul = answer.type === 'noul' ? answer.noul : 0.5;
      const codes = answer.arbiter?.evidence ?? [];
      return polarity.negated
        ? { noul: 1 - noul, abstained: answer.arbiter?.abstained ?? false, codes: ['negated', ...codes] }
        : { noul, abstained: answer.arbiter?.abstained ?? false, codes };
    }
    case 'not': {
      const inner = evaluateClaimForm(reading, form.claim, calibrate);
      return { ...inner, noul: 1 - inner.noul, codes: ['negated', ...inner.codes] };
    }
    case 'at-least':
    case 'at-most': {
      // A cumulative level is derived from the distribution over the scale's levels (as asked as a
      // Score), never evaluated as words, so "k or higher" falls as k rises and sums that Score.
      const levels = severityAnswer(reading, [...SEVERITY_SCALE], calibrate);
      const probabilities = levels.type === 'score' ? levels.probabilities : {};
      const noul = SEVERITY_SCALE.reduce(
        (sum, _, index) =>
          (form.kind === 'at-least' ? index >= form.rank : index <= form.rank)
            ? sum + (probabilities[index] ?? 0)
            : sum,
        0,
      );
      return {
        noul,
        abstained: levels.arbiter?.abstained ?? false,
        codes: [`${form.kind}:${SEVERITY_SCALE[form.rank]}`, ...(levels.arbiter?.evidence ?? [])],
      };
    }
    case 'and':
    case 'or': {
      const parts = form.parts.map((part) => evaluateClaimForm(reading, part, calibrate));
      // The parts taken as independent: and is the product, or one minus the product of complements.
      const noul =
        form.kind === 'and'
          ? parts.reduce((product, part) => product * part.noul, 1)
          : 1 - parts.reduce((product, part) => product * (1 - part.noul), 1);
      return {
        noul,
        abstained: parts.every((part) => part.abstained),
        codes: [form.kind, ...parts.flatMap((part) => (part.abstained ? [] : part.codes))],
      };
    }
  }
}

function evaluatePositiveNoul(
  reading: StateReading,
  instructions: string,
  trueText: string,
  falseText: string,
): Answer {
  const W = reading.weights;
  const asked = entailmentQuestionOf(`${instructions}\n${trueText}`);
  if (asked && reading.pair) {
    const scores = entailmentScores(reading, reading.pair);
    const roles = Object.values(scores);
    const probability = distribution(roles, 1)[Object.keys(scores).indexOf(asked)]!;
    return noulAnswer(probability, false, [`entailment:${asked}`]);
  }
  const relation = reading.pair && !trueText && !falseText ? textRelationOf(instructions) : undefined;
  if (relation && reading.pair) return relationAnswer(reading, reading.pair, relation);
  if (trueText && falseText) {
    // Both outcomes described: a two-way choice between the descriptions.
    // Valence weighs at the Noul's own rate (`claimValence`, fitted on real sentiment data): between
    // the poles (valence ±1) the squared distances differ by 4 per unit of the state's valence, so
    // "Is it positive?" gets the same log-odds whether or not its criteria name the two poles,
    // instead of the near-certainty (0.000 for a review with two negative words) that the Choice's
    // sharpness gave valence here.
    const evidence = scoreCandidates(
      reading,
      [readText(reading.vectors, trueText).candidate, readText(reading.vectors, falseText).candidate],
      { sharpness: W.sharpness, valenceRate: W.claimValence / 4 },
    );
    return noulAnswer(distribution(evidence.scores, 1)[0]!, evidence.abstained, evidence.codes);
  }
  // One claim: the state is evidence for it as far as it covers the claim's meaning, and as far
  // as its valence agrees with the claim's. The instructions are the claim unless a criterion
  // describes "true"; a criterion for "false" alone is a claim against.
  const claimText = trueText || (falseText ? '' : instructions);
  const codes: string[] = [];
  let logit = 0;
  let abstained = true;
  for (const [text, sign] of [
    [claimText, 1],
    [falseText, -1],
  ] as const) {
    if (!text) continue;
    // A claim that names a quality of its own (hostility, urgency) is judged by that quality's cues,
    // not by valence or topic: criticism is negative and not hostile, "production is down" holds no
    // negative word and is urgent.
    const quality = qualityEvidence(reading, text);
    if (quality !== undefined) {
      abstained = false;
      logit += sign * quality.logit;
      codes.push(quality.code);
      continue;
    }
    const { claim, valence: claimValence } = readText(reading.vectors, text);
    const alignment = align(claim, reading.meaning);
    // A claim with valence ("is this movie review positive?") is about the valence: its other
    // words name what the state is presumed to be about, so their presence is no evidence for it.
    // Only a claim that names a feeling or an opinion is: "spam" and "fraud" carry valence in the
    // lexicon, yet whether a text is spam is not its tone (an advertisement is cheerful).
    const feeling = claimValence.words > 0 && namesFeeling(reading.vectors, claim, text);
    const valenced = feeling && reading.valence.words > 0;
    // Evidence only when some pair of words could be compared (vectors, or the same word): a state
    // whose words are known and far from the claim's is evidence against it, within the topical
    // bound. Never for a claim of a feeling: a state without valenced words says nothing about its
    // tone, and the claim's words ("positive", "joy") near or far from the state's were read as
    // evidence, 0.69 sure at 0.28 right on tweets without valenced words (issue 28).
    if (alignment.closest && !feeling) {
      abstained = false;
      logit +=
        sign * bounded(W.claimCoverage * (alignment.coverage - W.claimCoverageBias), TOPICAL_LOGIT_LIMIT);
      codes.push(`near:${alignment.closest[0]}~${alignment.closest[1]}`);
    }
    // A named value the state contradicts (Friday against Tuesday) is evidence against the claim,
    // whatever its topic: word vectors cannot tell one day or number from another.
    const values = compareValueSets(claimValuesOf(text), stateValuesOf(reading));
    if (values.mismatched.length > 0) {
      abstained = false;
      logit -= sign * VALUE_MISMATCH_LOGIT * values.mismatched.length;
      codes.push(...values.mismatched.map(([claimed, stated]) => `mismatch:${claimed}~${stated}`));
    }
    if (valenced) {
      abstained = false;
      logit += sign * W.claimValence * Math.sign(claimValence.sum) * reading.valence.normalised;
      codes.push(`valence:${reading.valence.normalised.toFixed(2)}`);
    }
  }
  return noulAnswer(abstained ? 0.5 : 1 / (1 + Math.exp(-logit)), abstained, codes);
}

/**
 * Whether the second text of a pair says the same as the first (coverage both ways: each must
 * cover the other) or answers it (coverage of the question's words by the answer), less a
 * difference of negation and values the texts contradict. Coverage is topical evidence, bounded
 * like a claim's: two texts about the same things are not for that reason paraphrases.
 */
function relationAnswer(
  reading: StateReading,
  pair: PremiseAndHypothesis,
  relation: 'paraphrase' | 'answer',
): Answer {
  const W = reading.weights;
  const first = semanticTextOf(reading.vectors, pair.premise);
  const second = semanticTextOf(reading.vectors, pair.hypothesis);
  if (first.words.length === 0 || second.words.length === 0) return noulAnswer(0.5, true, []);
  const covered =
    relation === 'paraphrase'
      ? Math.min(coverage(first, second), coverage(second, first)) - W.entailmentCoverageBias
      : coverage(first, second) - W.claimCoverageBias;
  let logit = bounded(W.entailmentCoverage * covered, RELATION_LOGIT_LIMIT);
  const codes = [
    `relation:${relation}:${(covered + (relation === 'paraphrase' ? W.entailmentCoverageBias : W.claimCoverageBias)).toFixed(2)}`,
  ];
  if (relation === 'paraphrase') {
    if (polarityDiffers(pair.premise, pair.hypothesis)) {
      logit -= W.entailmentPolarity;
      codes.push('negation-differs');
    }
    const values = compareValues(pair.hypothesis, pair.premise);
    logit -= VALUE_MISMATCH_LOGIT * values.mismatched.length;
    codes.push(...values.mismatched.map(([claimed, stated]) => `mismatch:${claimed}~${stated}`));
  }
  return noulAnswer(1 / (1 + Math.exp(-logit)), false, codes.slice(0, MAX_EVIDENCE));
}

/**
 * Words that name feelings and opinions. A claim names one when one of the words that carry its
 * valence comes within `FEELING_MATCH` of them in the word vectors: "furious" 0.78, "satisfied"
 * 0.58, "excellent" 0.69, "sarcastic" 0.52; against "spam" 0.17, "fraud" 0.15, "war" 0.13, "junk"
 * 0.32, "creative" 0.32. Only those words: any word of the claim made "Does the user want to search
 * creative work?" a claim of a feeling ("does" is 0.46 from "good", "question" 0.43), judged by the
 * tone of the request, 0.71 sure at 0.59 right on SNIPS (issue 28).
 */
const FEELING_WORDS = 'feeling emotion mood opinion happy sad angry positive negative good bad';
const FEELING_MATCH = 0.35;
const feelingTexts = new WeakMap<WordVectors, SemanticText>();
const feelingClaims = new WeakMap<SemanticText, boolean>();

function namesFeeling(vectors: WordVectors, claim: SemanticText, text: string): boolean {
  // A claim's reading is memoised (readText), so this depends on the question's text alone.
  const known = feelingClaims.get(claim);
  if (known !== undefined) return known;
  let feelings = feelingTexts.get(vectors);
  if (!feelings) {
    feelings = semanticTextOf(vectors, FEELING_WORDS);
    feelingTexts.set(vectors, feelings);
  }
  const valenced = semanticTextOf(vectors, valencedWordsOf(text.replace(REQUEST_WORDS, ' ')).join(' '));
  const names = align(valenced, feelings).similarity >= FEELING_MATCH;
  feelingClaims.set(claim, names);
  return names;
}

/** The logit a claim of hostility or urgency gets from the state's cues; undefined for other claims. */
function qualityEvidence(reading: StateReading, claim: string): { logit: number; code: string } | undefined {
  const W = reading.weights;
  const hostile = hostilityClaim(claim);
  if (hostile !== 0) {
    const found = hostilityOf(reading.text);
    return {
      logit:
        hostile * (W.hostileWord * found.words + (found.targeted ? W.hostileTargeted : 0) - W.hostilityBias),
      code: `hostility:${found.words}${found.targeted ? ':targeted' : ''}`,
    };
  }
  const urgent = urgencyClaim(claim);
  if (urgent !== 0) {
    const { logit, code } = urgencyEvidence(reading);
    return { logit: urgent * logit, code };
  }
  return undefined;
}

/** How strongly the state needs action now, as a logit: failure, reach, pressure, calm, prior. */
function urgencyEvidence(reading: StateReading): { logit: number; code: string } {
  const W = reading.weights;
  const found = urgencyOf(reading.text);
  // Reach and gravity amplify a failure or a demand for speed; alone they are no urgency.
  const amplified = found.failure > 0 || found.pressure > 0 ? found.impact : 0;
  return {
    logit:
      W.urgencyFailure * found.failure +
      W.urgencyImpact * amplified +
      W.urgencyPressure * found.pressure -
      W.urgencyCalm * found.calm -
      W.urgencyBias,
    code: `urgency:${found.failure}/${amplified}/${found.pressure}/-${found.calm}`,
  };
}

function noulAnswer(probability: number, abstained: boolean, codes: readonly string[]): Answer {
  return { type: 'noul', noul: probability, arbiter: meta(abstained, codes) };
}

function evaluateChoice(reading: StateReading, question: Extract<Question, { type: 'choice' }>): Answer {
  const options = Object.keys(question.criteria);
  const texts = options.map((option) => {
    // A structured description is read as its words, like every other structured criterion.
    // An option's id is its name: with a description present the description alone is read, so
    // renaming the id (`a`, `billing`, `opt_2`) never changes the answer.
    const description = textOf(question.criteria[option] ?? '');
    return description || option;
  });
  let scores: number[];
  let abstained: boolean;
  let codes: string[];
  const sharpness = reading.weights.sharpness;
  const roles = texts.map(entailmentRoleOf);
  if (reading.pair && roles.every((role) => role !== undefined)) {
    // The role scores are already log-odds.
    const byRole = entailmentScores(reading, reading.pair);
    scores = roles.map((role) => byRole[role]);
    abstained = false;
    codes = ['entailment'];
  } else {
    const evidence = scoreCandidates(
      reading,
      texts.map((text) => readText(reading.vectors, text).candidate),
      { sharpness },
    );
    ({ scores, abstained, codes } = evidence);
    const kinds = answerKindScores(reading, texts);
    if (kinds) {
      // Each option's score is transformed from its own evidence alone, so Luce's axiom holds.
      scores = scores.map((score, index) => {
        const kind = kinds.scores[index];
        return kind === undefined ? score : reading.weights.topicUnderAnswerKind * score + sharpness * kind;
      });
      abstained = false;
      codes = [`asks-for:${kinds.asked}`, ...codes].slice(0, MAX_EVIDENCE);
    }
  }
  const probabilities = distribution(scores, 1);
  // fromEntries defines own properties, so an option named `__proto__` stays an option.
  return {
    type: 'choice',
    choice: options[indexOfMax(probabilities)] ?? '',
    confidence: normalisedEntropyConfidence(probabilities),
    probabilities: Object.fromEntries(options.map((option, index) => [option, probabilities[index]!])),
    arbiter: meta(abstained, codes),
  };
}

// Option texts recur request after request; the kind of answer each names is memoised.
const optionKindMemo = new WeakMap<WordVectors, Map<string, AnswerKind | null>>();

/**
 * When the state is a question, each option that names a kind of answer (a person, a place, a
 * number…) gets its log-weight from the kind the question's interrogative asks for, and its topical
 * evidence counts less. Options that name no kind keep their score. Each option is judged from its
 * own text and the state alone (never from which other options are offered), so removing an option
 * keeps the others' proportions.
 */
function answerKindScores(
  reading: StateReading,
  texts: readonly string[],
): { scores: (number | undefined)[]; asked: string } | undefined {
  let memo = optionKindMemo.get(reading.vectors);
  if (memo === undefined) {
    memo = new Map();
    optionKindMemo.set(reading.vectors, memo);
  }
  const kinds = texts.map((text) => {
    let kind = memo.get(text);
    if (kind === undefined) {
      kind = kindNamedBy(reading.vectors, text) ?? null;
      if (memo.size >= TEXT_READING_LIMIT) memo.clear();
      memo.set(text, kind);
    }
    return kind;
  });
  if (kinds.every((kind) => kind === null)) return undefined;
  const asked = askedKindsOf(reading.vectors, reading.text);
  if (asked === undefined) return undefined;
  const W = reading.weights;
  const scores = kinds.map((kind) => (kind === null ? undefined : W.answerKind * (asked[kind] ?? 0)));
  const top = Object.entries(asked).reduce((best, entry) => (entry[1] > best[1] ? entry : best));
  return { scores, asked: top[0] };
}

/** Words of a question that rates an opinion: its levels run from disapproval to approval. */
const RATING_WORDS: ReadonlySet<string> = new Set(
  'star stars review reviews reviewer rating ratings sentiment opinion satisfaction satisfied recommend'.split(
    ' ',
  ),
);

/** Levels that only say no or yes: a two-level Score of them asks the Noul of its instructions. */
const NO_WORDS = /^\s*(no|false|n|0|disagree|incorrect|wrong)\s*\.?\s*$/i;
const YES_WORDS = /^\s*(yes|true|y|1|agree|correct|right)\s*\.?\s*$/i;

function evaluateScore(
  reading: StateReading,
  question: Extract<Question, { type: 'score' }>,
  calibrate: Calibrate,
): Answer {
  const levels = question.criteria;
  const polar = levels.length === 2 ? polarLevelsOf(levels) : undefined;
  if (polar) {
    // The same question as a Noul: derived from it, so the two answers agree (and mirror when the
    // levels are given yes-first).
    // The Noul is calibrated already, so the Score is not calibrated again.
    const noul = evaluateNoul(reading, { type: 'noul', instructions: question.instructions }, calibrate);
    if (noul.type !== 'noul') return noul;
    const yes = noul.noul;
    const probabilities = polar === 'no-yes' ? [1 - yes, yes] : [yes, 1 - yes];
    return scoreAnswer(levels, probabilities, noul.arbiter ?? meta(true, []));
  }
  if (isSeverityScaleText(instructionText(question.instructions)) && levels.length > 1) {
    return severityAnswer(reading, levels, calibrate);
  }
  let candidates = levels.map(
    (description) => readText(reading.vectors, textOf(description ?? '')).candidate,
  );
  const valences = candidates.map((candidate) => candidate.valence);
  if (Math.max(...valences) - Math.min(...valences) <= 0.2) {
    // Levels without valence of their own on a question that has one ("How positive is it?"):
    // the levels are read as an ordered scale running from the opposite pole to the asked one.
    // A question that rates an opinion without naming a pole ("How many stars?", "Rate this
    // review from 0 to 4") runs the usual way of ratings: from disapproval up to approval.
    const instructions = instructionText(question.instructions);
    const asked = readText(reading.vectors, instructions).valence;
    const rating =
      asked.words === 0 &&
      wordsOf(`${instructions} ${levels.map((level) => textOf(level ?? '')).join(' ')}`).some((word) =>
        RATING_WORDS.has(word),
      );
    if (asked.words > 0 || rating) {
      const direction = rating ? 1 : Math.sign(asked.sum);
      // Levels that name their order ("5 stars" … "1 star") are read in it, so reversed levels
      // give the mirrored answer.
      const reversed = levelOrderOfLevels(levels.map((level) => textOf(level ?? ''))) === -1;
      candidates = candidates.map((candidate, index) => ({
        ...candidate,
        valence: direction * ((2 * (reversed ? levels.length - 1 - index : index)) / (levels.length - 1) - 1),
      }));
    }
  }
  // Levels that carry valence make a scale of valence, on which a state with no valenced word at all
  // is neutral: "the meeting is at 3pm" is evidence for the middle, not no evidence.
  const evidence = scoreCandidates(reading, candidates, {
    sharpness: reading.weights.scoreSharpness,
    wordlessIsNeutral: true,
    gateWeakMeaning: false,
  });
  const probabilities = evidence.abstained
    ? levels.map(() => 1 / levels.length)
    : distribution(evidence.scores, 1);
  return calibrate(scoreAnswer(levels, probabilities, meta(evidence.abstained, evidence.codes)));
}

/**
 * A Score on a scale of severity or urgency, levels lowest first: the state sits where its urgency
 * puts it (the probability that it is urgent, spread over the levels). Levels that describe
 * themselves ("Blocking; failing payouts") are evidence as well, by their match with the state.
 */
function severityAnswer(
  reading: StateReading,
  levels: Extract<Question, { type: 'score' }>['criteria'],
  calibrate: Calibrate,
): Answer {
  const { logit, code } = urgencyEvidence(reading);
  const fromLowest = (levels.length - 1) / (1 + Math.exp(-logit));
  // Levels whose own words run from the most severe down are read that way, so a reversed scale
  // gives the mirrored answer.
  const direction = severityDirectionOfLevels(levels.map((level) => textOf(level ?? '')));
  const position = direction === 1 ? fromLowest : levels.length - 1 - fromLowest;
  const described = scoreCandidates(
    reading,
    levels.map((description) => readText(reading.vectors, textOf(description ?? '')).candidate),
    { sharpness: reading.weights.scoreSharpness },
  );
  const scores = levels.map(
    (_, index) =>
      -reading.weights.severitySpread * (index - position) ** 2 +
      (described.abstained ? 0 : described.scores[index]!),
  );
  return calibrate(scoreAnswer(levels, distribution(scores, 1), meta(false, [code, ...described.codes])));
}

/** Whether two levels are no then yes (the usual order), yes then no, or something else. */
function polarLevelsOf(
  levels: Extract<Question, { type: 'score' }>['criteria'],
): 'no-yes' | 'yes-no' | undefined {
  const [low, high] = levels.map((level) => textOf(level ?? ''));
  // Unnamed levels of a yes/no question are no (0) and yes (1), lowest first.
  if (!low && !high) return 'no-yes';
  if (NO_WORDS.test(low!) && YES_WORDS.test(high!)) return 'no-yes';
  if (YES_WORDS.test(low!) && NO_WORDS.test(high!)) return 'yes-no';
  return undefined;
}

function scoreAnswer(
  levels: Extract<Question, { type: 'score' }>['criteria'],
  probabilities: readonly number[],
  arbiter: AnswerMeta,
): Answer {
  const probabilityRecord: Record<string, number> = {};
  const legend: Record<string, Criterion> = {};
  let score = 0;
  levels.forEach((description, index) => {
    probabilityRecord[index] = probabilities[index]!;
    legend[index] = description;
    score += index * probabilities[index]!;
  });
  return {
    type: 'score',
    score,
    confidence: normalisedEntropyConfidence(probabilities),
    probabilities: probabilityRecord,
    legend,
    arbiter,
  };
}

/**
 * The built-in engine's answer to any question outside a decision pack, from the state's words:
 * their meaning in pretrained word vectors, their exact overlap with the options, their valence,
 * and, for a premise and hypothesis, entailment cues. Without any evidence it abstains: a uniform
 * distribution, Noul 0.5, `arbiter.abstained: true`.
 */
/**
 * Calibrates one answer the evaluator has formed from evidence (`calibrateAnswer` with the
 * engine's calibration). The evaluator applies it to each answer it forms from evidence, before
 * deriving others from it: the parts of a compound claim, the Noul a yes/no Score restates.
 */
export type Calibrate = (answer: Answer, questionKind?: string) => Answer;

const uncalibrated: Calibrate = (answer) => answer;

export function evaluateLexically(
  reading: StateReading,
  question: Question,
  calibrate: Calibrate = uncalibrated,
): Answer {
  switch (question.type) {
    case 'noul':
      return evaluateNoul(reading, question, calibrate);
    case 'choice':
      // A Choice is calibrated by the kind of question its wording asks (never by its evidence).
      return calibrate(evaluateChoice(reading, question), choiceKindOf(question));
    case 'score':
      return evaluateScore(reading, question, calibrate);
  }
}
