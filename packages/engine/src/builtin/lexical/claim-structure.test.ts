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
    expect(claimFormOf('Is this about rock and roll?').kind).toBe('and');
    expect(claimFormOf('Is this black and white?')).toEqual({
      kind: 'and',
      parts: [
        { kind: 'atom', text: 'Is this black' },
        { kind: 'atom', text: 'white' },
      ],
    });
    expect(claimFormOf('Is it you and me?')).toEqual({ kind: 'atom', text: 'Is it you and me?' });
  });
});
