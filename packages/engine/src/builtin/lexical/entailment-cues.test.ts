import { describe, expect, it } from 'vitest';
import {
  entailmentQuestionOf,
  entailmentRoleOf,
  polarityDiffers,
  premiseAndHypothesisOf,
} from './entailment-cues.js';

describe('premiseAndHypothesisOf', () => {
  it('reads named fields, two plain strings, or labelled lines', () => {
    expect(premiseAndHypothesisOf({ premise: 'A dog runs.', hypothesis: 'An animal moves.' })).toEqual({
      premise: 'A dog runs.',
      hypothesis: 'An animal moves.',
    });
    expect(premiseAndHypothesisOf({ sentence1: 'a', sentence2: 'b', idx: 3 })).toEqual({
      premise: 'a',
      hypothesis: 'b',
    });
    expect(premiseAndHypothesisOf({ first: 'a', second: 'b' })).toEqual({ premise: 'a', hypothesis: 'b' });
    expect(premiseAndHypothesisOf('Premise: A dog runs in the park.\nHypothesis: A dog is outside.')).toEqual(
      {
        premise: 'A dog runs in the park.',
        hypothesis: 'A dog is outside.',
      },
    );
  });

  it('finds no pair in an ordinary state', () => {
    expect(premiseAndHypothesisOf('Production is down!')).toBeUndefined();
    expect(premiseAndHypothesisOf({ a: 'x', b: 'y', c: 'z' })).toBeUndefined();
    expect(premiseAndHypothesisOf(['a', 'b'])).toBeUndefined();
  });
});

describe('entailment questions and roles', () => {
  it('tells what a question asks about', () => {
    expect(entailmentQuestionOf('Does the premise entail the hypothesis?')).toBe('entailment');
    expect(entailmentQuestionOf('Does the hypothesis follow from the text?')).toBe('entailment');
    expect(entailmentQuestionOf('Do the two sentences contradict each other?')).toBe('contradiction');
    expect(entailmentQuestionOf('Is the hypothesis true given the premise?')).toBe('entailment');
    expect(entailmentQuestionOf('Is the second sentence false if the first holds?')).toBe('contradiction');
    expect(entailmentQuestionOf('Is this urgent?')).toBeUndefined();
  });

  it('maps option names to roles, "not entailment" to neutral', () => {
    expect(
      ['entailment', 'neutral', 'contradiction', 'not_entailment', 'unknown', 'billing'].map(
        entailmentRoleOf,
      ),
    ).toEqual(['entailment', 'neutral', 'contradiction', 'neutral', 'neutral', undefined]);
  });

  it('sees a difference of polarity by the parity of negations', () => {
    expect(polarityDiffers('A man is sleeping.', 'A man is not sleeping.')).toBe(true);
    expect(polarityDiffers('Nobody is here.', 'The room is not occupied, nobody is here.')).toBe(true);
    expect(polarityDiffers('The cat is not black.', 'The cat is not black at all.')).toBe(false);
  });
});
