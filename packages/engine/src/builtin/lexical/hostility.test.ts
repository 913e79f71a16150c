import { describe, expect, it } from 'vitest';
import { hostilityClaim, hostilityOf } from './hostility.js';

describe('hostility', () => {
  it('knows a claim of hostility, of civility, and neither', () => {
    expect(hostilityClaim('Is this tweet offensive?')).toBe(1);
    expect(hostilityClaim('Does the comment contain harassment or threats?')).toBe(1);
    expect(hostilityClaim('Is the reply civil?')).toBe(-1);
    expect(hostilityClaim('Is the sentiment of this review negative?')).toBe(0);
    expect(hostilityClaim('Is this urgent?')).toBe(0);
  });

  it('counts insults, profanity, masked swears and hostile phrases, not criticism', () => {
    expect(hostilityOf('You are a pathetic idiot').words).toBe(2);
    expect(hostilityOf('what the f*ck is this').words).toBe(1);
    expect(hostilityOf('just shut up already').words).toBeGreaterThanOrEqual(1);
    expect(hostilityOf('The update is slow and the new layout is confusing.').words).toBe(0);
    expect(hostilityOf('I am so sad the show was cancelled.').words).toBe(0);
    // At most three count.
    expect(hostilityOf('idiot moron loser clown fool').words).toBe(3);
  });

  it('calls a hostile word in a text that addresses someone targeted', () => {
    expect(hostilityOf('@USER you are a clown').targeted).toBe(true);
    expect(hostilityOf('what a clown show today').targeted).toBe(false);
    expect(hostilityOf('you are right, thanks').targeted).toBe(false);
  });
});
