import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Alignment, align, dotProducts, type SemanticText, semanticTextOf } from './semantic-text.js';
import { loadWordVectors } from './word-vectors.js';

/** One dot product at a time, each summed in dimension order: what `dotProducts` must equal. */
function dotProductsOneByOne(vector: Float32Array, packed: Float32Array, dimensions: number): number[] {
  const sums: number[] = [];
  for (let offset = 0; offset < packed.length; offset += dimensions) {
    let sum = 0;
    for (let d = 0; d < dimensions; d++) sum += vector[d]! * packed[offset + d]!;
    sums.push(sum);
  }
  return sums;
}

/** `align` as it was written before its rows were remembered: every pair computed afresh. */
function alignAfresh(source: SemanticText, target: SemanticText): Alignment {
  let total = 0;
  let weights = 0;
  let closest = Number.NEGATIVE_INFINITY;
  let pair: [string, string] | undefined;
  for (const word of source.unknown) {
    if (!target.surface.has(word)) continue;
    total += 1;
    weights += 1;
    closest = 1;
    pair = [word, word];
  }
  if (source.words.length === 0 || target.words.length === 0)
    return { coverage: weights > 0 ? total / weights : 0, closest: pair, similarity: pair ? closest : -1 };
  for (const from of source.words) {
    let best = -1;
    let bestAt = 0;
    target.words.forEach((to, index) => {
      let similarity = 0;
      for (let d = 0; d < from.vector.length; d++) similarity += from.vector[d]! * to.vector[d]!;
      if (similarity > best) {
        best = similarity;
        bestAt = index;
      }
    });
    total += from.weight * best;
    weights += from.weight;
    if (best > closest) {
      closest = best;
      pair = [from.word, target.words[bestAt]!.word];
    }
  }
  return { coverage: total / weights, closest: pair, similarity: closest };
}

const value = fc.float({ min: -1, max: 1, noNaN: true });

describe('dotProducts', () => {
  it('gives every sum bit for bit as one row at a time, for any number of rows and dimensions', () => {
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
          const out = new Float64Array(rows.length);
          dotProducts(query, packed, dimensions, out);
          expect([...out]).toStrictEqual(dotProductsOneByOne(query, packed, dimensions));
        },
      ),
    );
  });
});

describe('align', () => {
  const texts = [
    'My card payment was declined twice at the shop and the bank charged me a fee anyway',
    'billing dispute about a refused card charge',
    'The payouts have been failing for three days; the refund for order 4471 never arrived (xqzv)',
    'card card payment refund xqzv',
    'a question about the weather',
    'the',
  ];

  it('gives what computing every pair afresh gives, on first and later alignments alike', async () => {
    const vectors = await loadWordVectors();
    const read = texts.map((text) => semanticTextOf(vectors, text));
    // Twice over: the second pass reads the rows the first remembered, across different targets.
    for (let pass = 0; pass < 2; pass++) {
      for (const source of read) {
        for (const target of read) expect(align(source, target)).toStrictEqual(alignAfresh(source, target));
      }
    }
  });
});
