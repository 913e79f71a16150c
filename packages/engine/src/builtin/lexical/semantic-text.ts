import { STOP_WORDS } from './stop-words.js';
import type { WordVectors } from './word-vectors.js';

/** One content word of a text with its unit vector and its weight in the text's meaning. */
export interface WordSense {
  readonly word: string;
  readonly vector: Float32Array;
  readonly weight: number;
}

/** A text as word vectors: its content words, and their weighted mean (unit length). */
export interface SemanticText {
  readonly words: readonly WordSense[];
  /** Undefined when no word of the text has a vector. */
  readonly mean: Float32Array | undefined;
  /** The words' vectors one after another, for the inner loop of `coverage`. */
  readonly packed: Float32Array;
  /** Content words without a vector (rare words, codes, typos such as "asap"). */
  readonly unknown: readonly string[];
  /** Every content word, with or without a vector. */
  readonly surface: ReadonlySet<string>;
}

/**
 * Words that name the input itself ("this review", "the message") rather than a property of it:
 * a question asks about them in every case, so they carry no evidence about the answer.
 */
const INPUT_WORDS: ReadonlySet<string> = new Set(
  'text texts message messages review reviews article articles sentence sentences statement passage post tweet comment document content input query request snippet question questions utterance customer user writer author sentiment tone topic category intent kind type label'.split(
    ' ',
  ),
);

/**
 * Interrogatives are function words, but they say what kind of answer a question expects
 * ("who" a person, "where" a place, "when" a time), so they keep their vectors.
 */
const INTERROGATIVES: ReadonlySet<string> = new Set(['who', 'whom', 'where', 'when', 'why', 'how']);

const WORD = /[a-z]+/g;
const CAMEL_BOUNDARY = /([a-z])([A-Z])/g;

/**
 * Lower-case words of a text, splitting identifiers (`card_arrival`, `lostCard`) into words, since
 * option names are often identifiers.
 */
export function wordsOf(text: string): string[] {
  const lower = text.replace(CAMEL_BOUNDARY, '$1 $2').toLowerCase().replace(/n't\b/g, ' not');
  return lower.match(WORD) ?? [];
}

/**
 * Smooth inverse frequency (Arora, Liang & Ma, 2017): a word's weight is a / (a + p(w)), with p(w)
 * from Zipf's law (p ≈ 0.1 / rank) and a = 10⁻³, so "the" counts a hundredth of a rare word.
 */
function inverseFrequencyWeight(rank: number): number {
  return rank / (rank + 100);
}

/** A word's rarity in (0, 1): its smooth-inverse-frequency weight; unknown words count as rare. */
export function rarityOf(vectors: WordVectors, word: string): number {
  const rank = vectors.rankOf(word);
  return rank === undefined ? 1 : inverseFrequencyWeight(rank);
}

/** The content words of `text` that have vectors, each once, with their weights. */
export function semanticTextOf(
  vectors: WordVectors,
  text: string,
  options: { dropInputWords?: boolean } = {},
): SemanticText {
  const seen = new Set<string>();
  const words: WordSense[] = [];
  const unknown: string[] = [];
  const mean = new Float32Array(vectors.dimensions);
  for (const word of wordsOf(text)) {
    if (word.length < 2 || seen.has(word) || (STOP_WORDS.has(word) && !INTERROGATIVES.has(word))) continue;
    if (options.dropInputWords && INPUT_WORDS.has(word)) continue;
    seen.add(word);
    const vector = vectors.vectorOf(word);
    if (!vector) {
      unknown.push(word);
      continue;
    }
    const weight = inverseFrequencyWeight(vectors.rankOf(word) ?? 1);
    words.push({ word, vector, weight });
    for (let d = 0; d < mean.length; d++) mean[d]! += weight * vector[d]!;
  }
  const packed = new Float32Array(words.length * vectors.dimensions);
  words.forEach((sense, index) => {
    packed.set(sense.vector, index * vectors.dimensions);
  });
  return { words, mean: words.length === 0 ? undefined : normalised(mean), packed, unknown, surface: seen };
}

function normalised(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let d = 0; d < vector.length; d++) norm += vector[d]! * vector[d]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let d = 0; d < vector.length; d++) vector[d]! /= norm;
  return vector;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += a[d]! * b[d]!;
  return sum;
}

/** How well one text's words are covered by another's, and the closest pair of words. */
export interface Alignment {
  readonly coverage: number;
  /** The word of the source and the word of the target whose vectors are closest. */
  readonly closest: readonly [string, string] | undefined;
  /** The cosine of that pair (1 for the same word); −1 when no pair could be compared. */
  readonly similarity: number;
}

/**
 * How well `target` covers the words of `source`: the weighted mean, over `source`'s words, of the
 * best cosine with any word of `target` (the word-alignment similarity of BERTScore, with static
 * vectors). 0 when either side has no words.
 */
export function align(source: SemanticText, target: SemanticText): Alignment {
  const targets = target.words.length;
  let total = 0;
  let weights = 0;
  let closest = Number.NEGATIVE_INFINITY;
  let pair: [string, string] | undefined;
  // A word without a vector aligns only with itself, perfectly: the mention is the evidence.
  // Unknown words count as rare (weight 1), and one the target lacks is no evidence either way.
  for (const word of source.unknown) {
    if (!target.surface.has(word)) continue;
    total += 1;
    weights += 1;
    closest = 1;
    pair = [word, word];
  }
  if (source.words.length === 0 || targets === 0) {
    return { coverage: weights > 0 ? total / weights : 0, closest: pair, similarity: pair ? closest : -1 };
  }
  // Each source word's best cosine over the target's words, in the target's order (the first of
  // equal ones), from rows of cosines remembered per pair of source text and target word.
  const sources = source.words.length;
  if (bestScratch.length < sources) {
    bestScratch = new Float64Array(sources * 2);
    bestAtScratch = new Uint32Array(sources * 2);
  }
  const best = bestScratch;
  const bestAt = bestAtScratch;
  best.fill(-1, 0, sources);
  bestAt.fill(0, 0, sources);
  const rows = alignmentRowsOf(source);
  for (let t = 0; t < targets; t++) {
    const row = rowOf(source, rows, target.words[t]!.vector);
    for (let k = 0; k < sources; k++) {
      if (row[k]! > best[k]!) {
        best[k] = row[k]!;
        bestAt[k] = t;
      }
    }
  }
  for (let k = 0; k < sources; k++) {
    const from = source.words[k]!;
    total += from.weight * best[k]!;
    weights += from.weight;
    if (best[k]! > closest) {
      closest = best[k]!;
      pair = [from.word, target.words[bestAt[k]!]!.word];
    }
  }
  return { coverage: total / weights, closest: pair, similarity: closest };
}

// Each source word's best cosine and the target word that gives it, reused by every `align` (it
// runs to the end without yielding, so no two calls share them at once): a request aligns a few
// dozen texts, and two typed arrays each were a share of its garbage.
let bestScratch = new Float64Array(64);
let bestAtScratch = new Uint32Array(64);

/**
 * A word's cosines with the words of a source text depend on the two alone, and the texts aligned
 * as sources (options, levels, claims) are read once per process and recur request after request,
 * as do most words of the states they are aligned with. So each source text keeps, per target word
 * (its vector, one object per word of a table), the row of its words' cosines with it. The rows of
 * every source together are capped: past the cap all are dropped and made again as needed.
 */
let alignmentRows = new WeakMap<SemanticText, Map<Float32Array, Float64Array>>();
let alignmentRowCount = 0;
const ALIGNMENT_ROW_LIMIT = 100_000;

function alignmentRowsOf(source: SemanticText): Map<Float32Array, Float64Array> {
  let rows = alignmentRows.get(source);
  if (rows === undefined) {
    rows = new Map();
    alignmentRows.set(source, rows);
  }
  return rows;
}

function rowOf(
  source: SemanticText,
  rows: Map<Float32Array, Float64Array>,
  vector: Float32Array,
): Float64Array {
  const known = rows.get(vector);
  if (known !== undefined) return known;
  const row = new Float64Array(source.words.length);
  dotProducts(vector, source.packed, vector.length, row);
  if (++alignmentRowCount > ALIGNMENT_ROW_LIMIT) {
    alignmentRows = new WeakMap();
    alignmentRowCount = 0;
  }
  rows.set(vector, row);
  return row;
}

/**
 * `out[r]` is the dot product of `vector` with row `r` of `packed` (rows of `dimensions` values),
 * each summed in dimension order, `vector[d] * row[d]`.
 *
 * Four rows at a time, each row's sum in its own variable: one dot product is a chain of additions
 * that each wait for the last, so the four chains run side by side in the processor. Each sum is
 * still taken in dimension order, so every value is bit for bit what one row at a time gives (the
 * tests hold the two equal); about 2.5× faster than one row at a time.
 */
export function dotProducts(
  vector: Float32Array,
  packed: Float32Array,
  dimensions: number,
  out: Float64Array,
): void {
  const rows = packed.length / dimensions;
  const grouped = rows - (rows % 4);
  const paired = dimensions - (dimensions % 2);
  let row = 0;
  for (; row < grouped; row += 4) {
    const o0 = row * dimensions;
    const o1 = o0 + dimensions;
    const o2 = o1 + dimensions;
    const o3 = o2 + dimensions;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let d = 0;
    for (; d < paired; d += 2) {
      const x = vector[d]!;
      const y = vector[d + 1]!;
      s0 += x * packed[o0 + d]!;
      s1 += x * packed[o1 + d]!;
      s2 += x * packed[o2 + d]!;
      s3 += x * packed[o3 + d]!;
      s0 += y * packed[o0 + d + 1]!;
      s1 += y * packed[o1 + d + 1]!;
      s2 += y * packed[o2 + d + 1]!;
      s3 += y * packed[o3 + d + 1]!;
    }
    for (; d < dimensions; d++) {
      const x = vector[d]!;
      s0 += x * packed[o0 + d]!;
      s1 += x * packed[o1 + d]!;
      s2 += x * packed[o2 + d]!;
      s3 += x * packed[o3 + d]!;
    }
    out[row] = s0;
    out[row + 1] = s1;
    out[row + 2] = s2;
    out[row + 3] = s3;
  }
  for (; row < rows; row++) {
    const offset = row * dimensions;
    let sum = 0;
    for (let d = 0; d < dimensions; d++) sum += vector[d]! * packed[offset + d]!;
    out[row] = sum;
  }
}

/** The coverage part of `align`. */
export function coverage(source: SemanticText, target: SemanticText): number {
  return align(source, target).coverage;
}

/** Cosine of the two texts' weighted means; 0 when either has no words. */
export function meanSimilarity(a: SemanticText, b: SemanticText): number {
  return a.mean && b.mean ? cosine(a.mean, b.mean) : 0;
}

/**
 * Fixed one-word texts (probes) aligned against many texts: `coverages(target)` is, for each
 * probe, `align(probe, target).coverage`, bit for bit. A probe's cosine with a word depends on the
 * two words alone, so each target word's cosines with every probe are summed once per process and
 * remembered (at most one row per word of the vector table); a target then costs a lookup per
 * word instead of a dot product per word and probe. Summed in `align`'s own order, so nothing an
 * answer reads changes.
 */
export class WordProbes {
  readonly #probes: readonly WordSense[];
  readonly #rows = new Map<string, Float64Array>();

  /** Every text must hold exactly one word with a vector and no word without one. */
  constructor(texts: readonly SemanticText[]) {
    this.#probes = texts.map((text) => {
      if (text.words.length !== 1 || text.unknown.length !== 0)
        throw new Error('a word probe is one word with a vector');
      return text.words[0]!;
    });
  }

  coverages(target: SemanticText): Float64Array {
    const probes = this.#probes;
    const result = new Float64Array(probes.length);
    if (target.words.length === 0) return result;
    const best = new Float64Array(probes.length).fill(-1);
    for (const word of target.words) {
      const row = this.#rowOf(word);
      for (let k = 0; k < probes.length; k++) if (row[k]! > best[k]!) best[k] = row[k]!;
    }
    for (let k = 0; k < probes.length; k++) {
      const weight = probes[k]!.weight;
      // As `align` computes a one-word text's coverage: its weighted best over its weight.
      result[k] = (weight * best[k]!) / weight;
    }
    return result;
  }

  #rowOf(word: WordSense): Float64Array {
    const known = this.#rows.get(word.word);
    if (known !== undefined) return known;
    const row = new Float64Array(this.#probes.length);
    const target = word.vector;
    this.#probes.forEach((probe, k) => {
      const vector = probe.vector;
      let similarity = 0;
      for (let d = 0; d < vector.length; d++) similarity += vector[d]! * target[d]!;
      row[k] = similarity;
    });
    this.#rows.set(word.word, row);
    return row;
  }
}
