import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveWordVectorTable } from './word-vector-derivation.js';
import {
  decodeWordVectorTable,
  WORD_VECTOR_KEPT_RANK,
  WORD_VECTOR_TABLE_MAGIC,
  wordVectorTableFolder,
  wordVectorTableName,
} from './word-vectors.js';

/** A source file in the package's shape: each row is the vector, its L2 norm, then its index. */
function sourceFile(rows: Record<string, number[]>): string {
  const entries = Object.entries(rows).map(([word, vector], index) => {
    const norm = Math.hypot(...vector);
    return `${JSON.stringify(word)}:[${[...vector, norm, index].join(',')}]`;
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'word-vectors-'));
  const file = path.join(dir, 'source.json');
  writeFileSync(
    file,
    `{"precision":7,"l2NormIndex":4,"wordIndex":5,"size":4,"vectors":{${entries.join(',')}}}`,
  );
  return file;
}

describe('word-vector table derivation', () => {
  it('keeps word-shaped entries, ranks them by index, and reads back as unit vectors', async () => {
    const file = sourceFile({
      the: [0.9, 0.1, 0.2, 0.1],
      king: [0.1, 0.8, 0.3, 0.2],
      '<unk>': [0.5, 0.5, 0.5, 0.5],
      queen: [0.2, 0.7, 0.4, 0.3],
      "don't": [0.3, 0.1, 0.9, 0.4],
      apple: [0.6, 0.2, 0.1, 0.9],
    });
    const table = await deriveWordVectorTable(file);
    expect(table.readUInt32LE(0)).toBe(WORD_VECTOR_TABLE_MAGIC);
    const vectors = decodeWordVectorTable(table);
    expect(vectors.dimensions).toBe(4);
    expect(vectors.rankOf('the')).toBe(1);
    expect(vectors.rankOf('queen')).toBe(4);
    expect(vectors.vectorOf('<unk>')).toBeUndefined();
    expect(Math.hypot(...vectors.vectorOf("don't")!)).toBeCloseTo(1, 5);
  });

  it('is deterministic: the same source gives the same bytes', async () => {
    const rows = { alpha: [0.1, 0.2, 0.3, 0.4], beta: [0.4, 0.1, 0.2, 0.3], gamma: [0.3, 0.3, 0.1, 0.2] };
    expect(
      (await deriveWordVectorTable(sourceFile(rows))).equals(await deriveWordVectorTable(sourceFile(rows))),
    ).toBe(true);
  });

  it('finds the committed table where the engine reads it', () => {
    expect(readdirSync(wordVectorTableFolder())).toContain(wordVectorTableName('1.1.0'));
    expect(WORD_VECTOR_KEPT_RANK).toBe(50_000);
  });
});
