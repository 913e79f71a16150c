import { describe, expect, it } from 'vitest';
import { claimFormOf } from './claim-structure.js';

describe('claimFormOf', () => {
  it('splits conjunctions and disjunctions of claims, or binding looser than and', () => {
    expect(claimFormOf('The service is down and customers want refunds.')).toEqual({
      kind: 'and',
      parts: [
        { kind: 'atom', text: 'The service is down' },
        { kind: 'atom', text: 'customers want refunds' },
      ],
    });
    const form = claimFormOf('The server crashed or the network failed and nobody noticed');
    expect(form.kind).toBe('or');
    expect(form.kind === 'or' && form.parts[1]!.kind).toBe('and');
  });

  it('reads a negated compound as the negation of the compound, and parentheses as grouping', () => {
    expect(claimFormOf('not (the service is down and customers want refunds)')).toEqual({
      kind: 'not',
      claim: claimFormOf('the service is down and customers want refunds'),
    });
    const grouped = claimFormOf('(the server crashed or the network failed) and users complained');
    expect(grouped.kind).toBe('and');
    expect(grouped.kind === 'and' && grouped.parts[0]!.kind).toBe('or');
  });

  it('leaves a connective between words that are not claims alone', () => {
    expect(claimFormOf('This is about rock and roll.').kind).toBe('and');
    expect(claimFormOf('Is it you and me?')).toEqual({ kind: 'atom', text: 'Is it you and me?' });
  });

  it('reads "and" between phrases of a yes/no question as one phrase, not two claims', () => {
    expect(claimFormOf('Is this black and white?')).toEqual({
      kind: 'atom',
      text: 'Is this black and white?',
    });
    expect(claimFormOf('Does this question ask for description and abstract concept?')).toEqual({
      kind: 'atom',
      text: 'Does this question ask for description and abstract concept?',
    });
  });

  it('distributes a yes/no question over phrases joined by "or": "Is it A or B?" is "Is it A?" or "Is it B?"', () => {
    expect(claimFormOf('Is the meeting on Tuesday or Friday?')).toEqual({
      kind: 'or',
      parts: [
        { kind: 'atom', text: 'Is the meeting on Tuesday' },
        { kind: 'atom', text: 'Is the meeting on Friday' },
      ],
    });
    expect(claimFormOf('Is a tomato a fruit or a vegetable?')).toEqual({
      kind: 'or',
      parts: [
        { kind: 'atom', text: 'Is a tomato a fruit' },
        { kind: 'atom', text: 'Is a tomato a vegetable' },
      ],
    });
  });

  it('keeps a part that is a question of its own as a claim', () => {
    expect(claimFormOf('Is the service down or are customers asking for refunds?')).toEqual({
      kind: 'or',
      parts: [
        { kind: 'atom', text: 'Is the service down' },
        { kind: 'atom', text: 'are customers asking for refunds' },
      ],
    });
  });

  it('reads "level k or higher" and "at least k" on the scale of severity as a cumulative level', () => {
    expect(claimFormOf('Is the severity major or higher?')).toEqual({
      kind: 'at-least',
      rank: 3,
      text: 'Is the severity major or higher?',
    });
    expect(claimFormOf('Is it at least high?')).toMatchObject({ kind: 'at-least', rank: 3 });
    expect(claimFormOf('Is the bug minor or lower?')).toMatchObject({ kind: 'at-most', rank: 1 });
    // A word that ranks nothing is no level: the comparative stays a phrase of the question.
    expect(claimFormOf('Is the price fair or higher?').kind).toBe('or');
  });
});
