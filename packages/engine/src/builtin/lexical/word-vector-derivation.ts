import { createReadStream } from 'node:fs';
import { WORD_VECTOR_KEPT_RANK, WORD_VECTOR_SOURCE, WORD_VECTOR_TABLE_MAGIC } from './word-vectors.js';

/**
 * Derives the built-in engine's word-vector table from the source package's JSON: the words of
 * the WORD_VECTOR_KEPT_RANK most frequent entries, post-processed ("all-but-the-top", Mu &
 * Viswanath, 2018: subtract the mean vector and remove the two dominant directions, which carry
 * word frequency rather than meaning, so that the cosine of unrelated texts sits near zero) and
 * quantised to 8 bits. The engine never runs this: the table it reads ships in the package
 * (`word-vectors/`), made once by `scripts/word-vectors.mjs`, so the 294 MB source package is not
 * an install dependency. The output is deterministic: the same source gives the same bytes.
 */
export async function deriveWordVectorTable(jsonPath: string): Promise<Buffer> {
  const table = await readSource(jsonPath);
  allButTheTop(table.values, table.words.length, table.dimensions);
  return encode(table);
}

const REMOVED_DIRECTIONS = 2;
const WORD_SHAPE = /^[a-z]+(?:['-][a-z]+)*$/;

interface Table {
  words: string[];
  ranks: Uint32Array;
  values: Float32Array;
  dimensions: number;
}

/** Streams the package's JSON (`"vectors":{"word":[…100 values, norm, index], …}`). */
async function readSource(jsonPath: string): Promise<Table> {
  const words: string[] = [];
  const ranks: number[] = [];
  const rows: number[][] = [];
  let dimensions = 0;
  let buffer = '';
  let inVectors = false;
  const entry = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/y;
  for await (const chunk of createReadStream(jsonPath, { encoding: 'utf8', highWaterMark: 1 << 22 })) {
    buffer += chunk as string;
    if (!inVectors) {
      const start = buffer.indexOf('"vectors":{');
      if (start < 0) {
        buffer = buffer.slice(-32);
        continue;
      }
      inVectors = true;
      buffer = buffer.slice(start + '"vectors":{'.length);
    }
    let offset = 0;
    for (;;) {
      if (buffer[offset] === ',') offset++;
      entry.lastIndex = offset;
      const match = entry.exec(buffer);
      if (!match) break;
      offset = entry.lastIndex;
      const word = JSON.parse(`"${match[1]}"`) as string;
      if (!WORD_SHAPE.test(word)) continue;
      const numbers = (match[2] ?? '').split(',').map(Number);
      // Each row is the vector, then its L2 norm, then the word's index (0 = most frequent).
      const rank = (numbers.at(-1) ?? Number.POSITIVE_INFINITY) + 1;
      if (rank > WORD_VECTOR_KEPT_RANK) continue;
      dimensions = numbers.length - 2;
      words.push(word);
      ranks.push(rank);
      rows.push(numbers.slice(0, dimensions));
    }
    buffer = buffer.slice(offset);
  }
  if (words.length === 0 || dimensions === 0)
    throw new Error(`${WORD_VECTOR_SOURCE}: no vectors found in ${jsonPath}`);
  const values = new Float32Array(words.length * dimensions);
  rows.forEach((row, index) => {
    values.set(row, index * dimensions);
  });
  return { words, ranks: Uint32Array.from(ranks), values, dimensions };
}

/** Mean removal, then projection off the dominant directions, then unit length. */
function allButTheTop(values: Float32Array, count: number, dimensions: number): void {
  const mean = new Float64Array(dimensions);
  for (let row = 0; row < count; row++) {
    for (let d = 0; d < dimensions; d++) mean[d]! += values[row * dimensions + d]! / count;
  }
  for (let row = 0; row < count; row++) {
    for (let d = 0; d < dimensions; d++) values[row * dimensions + d]! -= mean[d]!;
  }
  const covariance = new Float64Array(dimensions * dimensions);
  for (let row = 0; row < count; row++) {
    const base = row * dimensions;
    for (let i = 0; i < dimensions; i++) {
      const vi = values[base + i]!;
      for (let j = i; j < dimensions; j++) covariance[i * dimensions + j]! += vi * values[base + j]!;
    }
  }
  for (let i = 0; i < dimensions; i++) {
    for (let j = 0; j < i; j++) covariance[i * dimensions + j] = covariance[j * dimensions + i]!;
  }
  for (let k = 0; k < REMOVED_DIRECTIONS; k++) {
    // Power iteration for the dominant eigenvector, then deflation.
    let vector = new Float64Array(dimensions).fill(1 / Math.sqrt(dimensions));
    let eigenvalue = 0;
    for (let iteration = 0; iteration < 200; iteration++) {
      const next = new Float64Array(dimensions);
      for (let i = 0; i < dimensions; i++) {
        let sum = 0;
        for (let j = 0; j < dimensions; j++) sum += covariance[i * dimensions + j]! * vector[j]!;
        next[i] = sum;
      }
      eigenvalue = Math.hypot(...next);
      for (let i = 0; i < dimensions; i++) next[i]! /= eigenvalue;
      vector = next;
    }
    for (let i = 0; i < dimensions; i++) {
      for (let j = 0; j < dimensions; j++)
        covariance[i * dimensions + j]! -= eigenvalue * vector[i]! * vector[j]!;
    }
    for (let row = 0; row < count; row++) {
      const base = row * dimensions;
      let projection = 0;
      for (let d = 0; d < dimensions; d++) projection += values[base + d]! * vector[d]!;
      for (let d = 0; d < dimensions; d++) values[base + d]! -= projection * vector[d]!;
    }
  }
  for (let row = 0; row < count; row++) {
    const base = row * dimensions;
    let norm = 0;
    for (let d = 0; d < dimensions; d++) norm += values[base + d]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dimensions; d++) values[base + d]! /= norm;
  }
}

function encode(table: Table): Buffer {
  const { words, ranks, values, dimensions } = table;
  const count = words.length;
  const wordBytes = Buffer.from(words.join('\n'), 'utf8');
  const padded = Math.ceil(wordBytes.length / 4) * 4;
  const buffer = Buffer.alloc(16 + padded + count * 8 + count * dimensions);
  buffer.writeUInt32LE(WORD_VECTOR_TABLE_MAGIC, 0);
  buffer.writeUInt32LE(count, 4);
  buffer.writeUInt32LE(dimensions, 8);
  buffer.writeUInt32LE(wordBytes.length, 12);
  wordBytes.copy(buffer, 16);
  let offset = 16 + padded;
  for (let row = 0; row < count; row++) buffer.writeUInt32LE(ranks[row]!, offset + row * 4);
  offset += count * 4;
  const scalesOffset = offset;
  offset += count * 4;
  for (let row = 0; row < count; row++) {
    let largest = 0;
    for (let d = 0; d < dimensions; d++) largest = Math.max(largest, Math.abs(values[row * dimensions + d]!));
    const scale = largest / 127 || 1;
    buffer.writeFloatLE(scale, scalesOffset + row * 4);
    for (let d = 0; d < dimensions; d++) {
      buffer.writeInt8(Math.round(values[row * dimensions + d]! / scale), offset + row * dimensions + d);
    }
  }
  return buffer;
}
