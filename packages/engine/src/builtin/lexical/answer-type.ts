import { wordsOf } from './semantic-text.js';
import type { WordVectors } from './word-vectors.js';

/**
 * The kind of answer a question asks for, read from its interrogative phrase: the principle of
 * question classification (Li & Roth, 2002) that "who" asks for a person, "where" for a place,
 * "how many" for a number, "why" for a reason, and "what X" for an X. It is evidence for an option
 * that names a kind of answer when the state is a question: the question's topic says little about
 * which kind it asks for.
 */
export type AnswerKind = 'person' | 'place' | 'number' | 'description' | 'abbreviation' | 'entity';

/**
 * Words that name each kind of answer, as option labels tend to name them. An option is read as a
 * kind when one of its words is close to one of these in vector space, or abbreviates one
 * ("NUM", "LOC", "HUM", "DESC", "ABBR").
 */
const KIND_NAMES: Readonly<Record<AnswerKind, readonly string[]>> = {
  person: ['person', 'human', 'people', 'individual', 'who'],
  place: ['location', 'place', 'where', 'geographic'],
  number: ['numeric', 'number', 'quantity', 'amount', 'numerical', 'count'],
  description: ['description', 'definition', 'explanation', 'reason', 'describe', 'explain'],
  abbreviation: ['abbreviation', 'acronym', 'abbreviated'],
  entity: ['entity', 'thing', 'object', 'entities'],
};

/**
 * Head nouns of "what X" and "which X" that ask for a person, a place or a number. A head noun is
 * read as one of these kinds when it is, or is close in vector space to, one of its words; any
 * other head noun asks for a thing of its kind (an entity).
 */
const HEAD_NOUNS: Readonly<Partial<Record<AnswerKind, readonly string[]>>> = {
  person: [
    'person',
    'man',
    'woman',
    'president',
    'author',
    'actor',
    'king',
    'inventor',
    'leader',
    'composer',
  ],
  place: [
    'city',
    'country',
    'state',
    'place',
    'river',
    'mountain',
    'continent',
    'island',
    'capital',
    'county',
  ],
  // Measures: what one counts or measures is answered with a number.
  number: [
    'year',
    'number',
    'date',
    'day',
    'age',
    'population',
    'distance',
    'length',
    'height',
    'weight',
    'size',
    'diameter',
    'depth',
    'percentage',
    'rate',
    'price',
    'cost',
    'temperature',
    'speed',
    'duration',
    'span',
    'expectancy',
    'amount',
  ],
};

/** How close (cosine) a word must be to a kind's word to be read as naming that kind. */
const NAMING_SIMILARITY = 0.6;
/** How close a head noun must be to a kind's head nouns. */
const HEAD_SIMILARITY = 0.55;

/**
 * The weight of "a thing" for a head noun the lexicon does not place ("what film", "what level of
 * government"): a default, not a reading, so it weighs half what a recognised interrogative or head
 * does. At full weight TREC questions read this way were 0.77 sure at 0.42–0.53 right, while those
 * read by a rule ("who", "how many", "what city") were 0.80 sure at 0.83–0.97 (issue 28).
 */
const UNPLACED_HEAD = 0.5;

/** "How" followed by one of these asks for a measure: a number. */
const MEASURES = new Set(
  'many much long far old big large tall high fast often deep wide hot cold heavy small short soon early late'.split(
    ' ',
  ),
);
const COPULAS = new Set(['is', 'are', 'was', 'were']);
/** Words of the noun phrase after "what"/"which" read for its head. */
const MAX_PHRASE = 3;
const BE_OR_DO = new Set('is are was were be been does do did can could will would has have had'.split(' '));
const DETERMINERS = new Set(['a', 'an', 'the']);
/** Words that end a noun phrase after "what"/"which": a preposition, a verb helper, a pronoun. */
const PHRASE_ENDS = new Set(
  'of in on at for from to by with about into over under during between a an the is are was were does do did has have had can could will would you i we they he she it called named known used'.split(
    ' ',
  ),
);
const INTERROGATIVE = /^(who|whom|whose|where|when|why|how|what|which|name)$/;

/**
 * The kind of answer an option names, when one of its words is close to a kind's words or
 * abbreviates one ("person", "a human being", "HUM", "numeric value", "NUM"), else undefined.
 */
export function kindNamedBy(vectors: WordVectors, option: string): AnswerKind | undefined {
  let best: AnswerKind | undefined;
  let bestSimilarity = NAMING_SIMILARITY;
  for (const word of wordsOf(option)) {
    if (word.length < 3) continue;
    const [kind, similarity] = closestKind(
      vectors,
      word,
      KIND_NAMES,
      (name) => word === name || abbreviates(word, name),
    );
    if (kind !== undefined && similarity > bestSimilarity) {
      bestSimilarity = similarity;
      best = kind;
    }
  }
  return best;
}

/**
 * The kind whose words `word` is closest to, and how close: 1 for a word that `same` accepts as
 * the kind's word, else the best cosine of their vectors.
 */
function closestKind(
  vectors: WordVectors,
  word: string,
  lexicon: Readonly<Partial<Record<AnswerKind, readonly string[]>>>,
  same: (kindWord: string) => boolean,
): [AnswerKind | undefined, number] {
  const vector = vectors.vectorOf(word);
  let best: AnswerKind | undefined;
  let bestSimilarity = Number.NEGATIVE_INFINITY;
  for (const [kind, kindWords] of Object.entries(lexicon) as [AnswerKind, readonly string[]][]) {
    for (const kindWord of kindWords) {
      let similarity = same(kindWord) ? 1 : 0;
      if (similarity < 1 && vector) {
        const other = vectors.vectorOf(kindWord);
        if (other) similarity = dot(vector, other);
      }
      if (similarity > bestSimilarity) {
        bestSimilarity = similarity;
        best = kind;
      }
    }
  }
  return [best, bestSimilarity];
}

/** "num" abbreviates "numeric", "enty" "entity": the same first letter, the rest in order. */
function abbreviates(short: string, long: string): boolean {
  if (short.length >= long.length || short[0] !== long[0]) return false;
  let at = 0;
  for (const letter of long) if (letter === short[at]) at++;
  return at === short.length;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += a[d]! * b[d]!;
  return sum;
}

/**
 * The kinds of answer a question asks for, as probabilities, or undefined when the text is not a
 * question (no interrogative word, no question mark).
 */
export function askedKindsOf(
  vectors: WordVectors,
  question: string,
): Partial<Record<AnswerKind, number>> | undefined {
  const words = wordsOf(question);
  const lower = words.join(' ');
  if (/\b(stand for|stands for|short for|abbreviation|acronym)\b/.test(lower)) return { abbreviation: 1 };
  const at = words.findIndex((word) => INTERROGATIVE.test(word));
  if (at === -1) {
    if (!question.trim().endsWith('?')) return undefined;
    return alternativeKinds(vectors, question, words) ?? { description: 0.5, entity: 0.5 };
  }
  const word = words[at]!;
  const next = words[at + 1];
  switch (word) {
    case 'who':
    case 'whom':
    case 'whose':
      return { person: 1 };
    case 'where':
      return { place: 1 };
    case 'when':
      return { number: 1 };
    case 'why':
      return { description: 1 };
    case 'how':
      return next !== undefined && MEASURES.has(next) ? { number: 1 } : { description: 1 };
    default:
      return whatKinds(vectors, words.slice(at + 1));
  }
}

const NUMERIC_ALTERNATIVE = /\bor\s+(?:(?:a|an|the)\s+)?[$£€]?\d/i;

/**
 * A question without an interrogative that offers alternatives ("Is Boston or Chicago bigger?",
 * "Was it built in 1889 or 1900?") asks for one of them, not for yes or no: its answer is of the
 * alternatives' kind, as TREC labels "Which is heavier, cream or milk?" an entity and "Who killed
 * more, Hitler or Stalin?" a person. Read as a yes/no question it was a description or an entity
 * at even odds. The kind is the head of the alternative after "or": a number when it is one, else
 * the kind its noun names (a person, a place, a measure), else a thing. Undefined without "or".
 */
function alternativeKinds(
  vectors: WordVectors,
  question: string,
  words: readonly string[],
): Partial<Record<AnswerKind, number>> | undefined {
  // Words are letters only, so a numeric alternative is read from the text.
  if (NUMERIC_ALTERNATIVE.test(question)) return { number: 1 };
  let at = words.indexOf('or') + 1;
  if (at === 0) return undefined;
  while (DETERMINERS.has(words[at] ?? '')) at++;
  const alternative = words[at];
  if (alternative === undefined) return undefined;
  const [kind, similarity] = headKind(vectors, alternative);
  return similarity > HEAD_SIMILARITY ? { [kind]: 1 } : { entity: UNPLACED_HEAD };
}

/**
 * "What X …" asks for an X; "what is a Y" for a definition; "what is the X of Y" for an X; "what
 * does X do" for a description, "what do X eat" for a thing. The noun phrase after the interrogative
 * (and its verb) is read up to its first function word, at most three words. Without a part-of-
 * speech tagger a main verb right after the phrase is read as part of it ("what river flows" has
 * "flows" for head): such questions fall back to asking for a thing.
 */
function whatKinds(vectors: WordVectors, rest: readonly string[]): Partial<Record<AnswerKind, number>> {
  let index = 0;
  const verb = rest[index];
  const copula = verb !== undefined && COPULAS.has(verb);
  const auxiliary = verb !== undefined && !copula && BE_OR_DO.has(verb);
  if (copula || auxiliary) index++;
  if (rest[index] !== undefined && DETERMINERS.has(rest[index]!)) index++;
  const phrase: string[] = [];
  while (index < rest.length && phrase.length < MAX_PHRASE && !PHRASE_ENDS.has(rest[index]!)) {
    phrase.push(rest[index++]!);
    // A possessive ends the phrase at its possessor: "what city's newspaper" asks for a city.
    if (rest[index] === 's') break;
  }
  // A determiner starts another noun phrase, the object of a verb: "which poet wrote the sonnet"
  // has read "poet wrote", and "wrote" is that verb.
  if (phrase.length > 1 && DETERMINERS.has(rest[index] ?? '')) phrase.pop();
  const tail = rest.length - index;
  // "What does X mean?", "What is the meaning of X?": a definition.
  if (rest.includes('mean') || phrase.includes('meaning') || phrase.includes('definition'))
    return { description: 1 };
  // "What does a defibrillator do?": what something does is described.
  if (auxiliary) return rest.at(-1) === 'do' ? { description: 1 } : { entity: 0.7, description: 0.3 };
  const kind = phraseKind(vectors, phrase);
  if (kind !== 'entity') return { [kind]: 1 };
  // "What is an atom?", "What is epilepsy?": a term to define, nothing after it.
  if (copula && phrase.length <= MAX_PHRASE && tail === 0) return { description: 0.8, entity: 0.2 };
  return phrase.length === 0 ? { description: 0.5, entity: 0.5 } : { entity: UNPLACED_HEAD };
}

/**
 * The kind its head names: a person, a place or a measure, else a thing. English noun phrases are
 * head-final ("the Ohio state bird" is a bird), so the head is the phrase's last word.
 */
function phraseKind(vectors: WordVectors, phrase: readonly string[]): AnswerKind {
  const head = phrase.at(-1);
  if (head === undefined) return 'entity';
  const [kind, similarity] = headKind(vectors, head);
  return similarity > HEAD_SIMILARITY ? kind : 'entity';
}

function headKind(vectors: WordVectors, head: string): [AnswerKind, number] {
  const [kind, similarity] = closestKind(
    vectors,
    head,
    HEAD_LEXICON,
    (noun) => noun === head || `${noun}s` === head,
  );
  return [kind ?? 'entity', similarity];
}

/** The head nouns of each kind with the words that name it. */
const HEAD_LEXICON: Readonly<Partial<Record<AnswerKind, readonly string[]>>> = Object.fromEntries(
  Object.entries(HEAD_NOUNS).map(([kind, nouns]) => [kind, [...nouns, ...KIND_NAMES[kind as AnswerKind]]]),
);
