import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { align, closestRow, semanticTextOf } from './semantic-text.js';
import { loadWordVectors } from './word-vectors.js';

/** One row at a time, each sum in dimension order: what `closestRow` must equal bit for bit. */
function closestRowOneByOne(vector: Float32Array, packed: Float32Array, dimensions: number) {
  let best = -1;
  let bestAt = 0;
  for (let offset = 0; offset < packed.length; offset += dimensions) {
    let similarity = 0;
    for (let d = 0; d < dimensions; d++) similarity += vector[d]! * packed[offset + d]!;
    if (similarity > best) {
      best = similarity;
      bestAt = offset;
    }
  }
  return { best, bestAt };
}

const value = fc.float({ min: -1, max: 1, noNaN: true });

describe('closestRow', () => {
  it('gives the same sum and row as one row at a time, for any number of rows and dimensions', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 7 })
          .chain((dimensions) =>
            fc.tuple(
              fc.constant(dimensions),
              fc.array(value, { minLength: dimensions, maxLength: dimensions }),
              fc.array(fc.array(value, { minLength: dimensions, maxLength: dimensions }), { maxLength: 11 }),
            ),
          ),
        ([dimensions, vector, rows]) => {
          const packed = Float32Array.from(rows.flat());
          const query = Float32Array.from(vector);
          expect(closestRow(query, packed, dimensions)).toStrictEqual(
            closestRowOneByOne(query, packed, dimensions),
          );
        },
      ),
    );
  });

  it('takes the first of equal rows, and row 0 with −1 when no row exceeds −1', () => {
    const packed = Float32Array.from([0, 1, 1, 0, 1, 0, 0, 1, 1, 0]);
    expect(closestRow(Float32Array.from([1, 0]), packed, 2)).toStrictEqual({ best: 1, bestAt: 2 });
    const opposite = Float32Array.from([-1, 0, -1, 0, -1, 0, -1, 0, -1, 0]);
    expect(closestRow(Float32Array.from([1, 0]), opposite, 2)).toStrictEqual({ best: -1, bestAt: 0 });
  });

  it('aligns real word vectors as one row at a time does', async () => {
    const vectors = await loadWordVectors();
    const state = semanticTextOf(
      vectors,
      'My card payment was declined twice at the shop and the bank charged me a fee anyway',
    );
    const option = semanticTextOf(vectors, 'billing dispute about a refused card charge');
    const alignment = align(option, state);
    let total = 0;
    let weights = 0;
    for (const word of option.words) {
      total += word.weight * closestRowOneByOne(word.vector, state.packed, vectors.dimensions).best;
      weights += word.weight;
    }
    expect(alignment.coverage).toBe(total / weights);
  });
});
