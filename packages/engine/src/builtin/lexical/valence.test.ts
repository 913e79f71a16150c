import { describe, expect, it } from 'vitest';
import { valenceOf } from './valence.js';

describe('valenceOf (AFINN-165 with VADER rules)', () => {
  it('reads the sign of plainly positive and negative texts', () => {
    expect(valenceOf('A wonderful, delightful film.').normalised).toBeGreaterThan(0.5);
    expect(valenceOf('A terrible, boring waste of time.').normalised).toBeLessThan(-0.5);
    expect(valenceOf('The package arrived on Tuesday.')).toMatchObject({ sum: 0, words: 0 });
  });

  it("knows only the lexicon's own words, not Object.prototype members", () => {
    expect(valenceOf('constructor toString valueOf hasOwnProperty')).toMatchObject({ sum: 0, words: 0 });
    expect(Number.isFinite(valenceOf('the constructor was great').normalised)).toBe(true);
  });

  it('flips and weakens a negated word', () => {
    const bad = valenceOf('the food was bad').sum;
    const notBad = valenceOf('the food was not bad').sum;
    expect(notBad).toBeGreaterThan(0);
    expect(notBad).toBeLessThan(-bad);
    expect(valenceOf("I didn't like it").sum).toBeLessThan(0);
  });

  it('reads praise that opens a sentence about a misfortune as sarcasm', () => {
    expect(valenceOf('Oh great, my flight got cancelled again.').sum).toBeLessThan(0);
    expect(valenceOf('Perfect, I lost all my files again.').sum).toBeLessThan(0);
    expect(valenceOf('Wonderful, another outage.').sum).toBeLessThan(0);
    // Sincere praise: the rest is positive, or no misfortune is reported, or a list of qualities.
    expect(valenceOf('Thanks a lot, the fix works great!').sum).toBeGreaterThan(0);
    expect(valenceOf('Great, the crash is gone and everything works!').sum).toBeGreaterThan(0);
    expect(valenceOf('fun, flip and terribly hip bit of cinematic entertainment.').sum).toBe(
      valenceOf('fun and flip and terribly hip bit of cinematic entertainment.').sum,
    );
  });

  it('scales with boosters and dampeners', () => {
    const good = valenceOf('it is good').sum;
    expect(valenceOf('it is very good').sum).toBeGreaterThan(good);
    expect(valenceOf('it is slightly good').sum).toBeLessThan(good);
  });

  it('weighs what follows "but" over what precedes it', () => {
    expect(valenceOf('The start is great but the ending is awful').sum).toBeLessThan(0);
    expect(valenceOf('The start is awful but the ending is great').sum).toBeGreaterThan(0);
  });

  it('strengthens, never creates, valence with exclamation marks and capitals', () => {
    expect(Math.abs(valenceOf('This is bad!!!').sum)).toBeGreaterThan(Math.abs(valenceOf('This is bad').sum));
    expect(valenceOf('The meeting is on MONDAY!!!').sum).toBe(0);
  });

  it("gives an inflection its lemma's valence when the lexicon lists only the lemma", () => {
    // AFINN lists "crash" and "fail", not "crashed" or "failed".
    expect(valenceOf('the server crashed').sum).toBeLessThan(0);
    expect(valenceOf('every upload failed').sum).toBeLessThan(0);
    expect(valenceOf('the server crashed').sum).toBe(valenceOf('the server crash').sum);
    // Words that only look inflected keep no valence: "bus", "red", "ring".
    expect(valenceOf('the red bus has a ring').words).toBe(0);
  });

  it('keeps the normalised valence inside (−1, 1)', () => {
    const extreme = valenceOf('awful '.repeat(200)).normalised;
    expect(extreme).toBeGreaterThan(-1);
    expect(extreme).toBeLessThan(-0.99);
  });
});
