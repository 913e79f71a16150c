import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonByteLength } from './json-byte-length.js';

const stringified = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

describe('jsonByteLength', () => {
  it.each([
    ['plain text', 'hello'],
    ['multi-byte text', 'é😀中'],
    ['escapes', 'a "quote", a \\ and a\nnewline\u0001'],
    ['a lone surrogate', 'x\ud800y'],
    ['numbers', [0, -1.5, 1e21, 5e-324, Number.NaN, Number.POSITIVE_INFINITY]],
    ['empty containers', [{}, [], '']],
    ['skipped members', { a: undefined, b: () => 1, c: Symbol('s'), d: 1 }],
    ['holes written as null', [undefined, () => 1, Symbol('s')]],
    ['toJSON', { when: new Date(0), nested: { toJSON: () => 'xyz' } }],
    ['a null-prototype object', Object.assign(Object.create(null), { k: 'v' })],
  ])('equals the compact JSON byte length for %s', (_name, value) => {
    expect(jsonByteLength(value)).toBe(stringified(value));
  });

  it('equals the compact JSON byte length for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonByteLength(value)).toBe(stringified(value));
      }),
      { numRuns: 500 },
    );
  });

  it('equals it for strings of any code units, including lone surrogates', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
        (a, b) => {
          expect(jsonByteLength({ [a]: b })).toBe(stringified({ [a]: b }));
        },
      ),
      { numRuns: 200 },
    );
  });
});
