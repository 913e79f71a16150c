import { describe, expect, it } from 'vitest';
import { teamRecordOutcome } from './team-record-outcome.js';

const HOUR = 3_600_000;

describe('teamRecordOutcome', () => {
  it("is the gate's own outcome for ALLOW, DENY and no verdict", () => {
    expect(teamRecordOutcome({ effective: 'ALLOW', outcomeMs: null, receivedMs: 0 }, 10 * HOUR, HOUR)).toBe(
      'allowed',
    );
    expect(teamRecordOutcome({ effective: 'DENY', outcomeMs: null, receivedMs: 0 }, 10 * HOUR, HOUR)).toBe(
      'denied',
    );
    expect(teamRecordOutcome({ effective: null, outcomeMs: null, receivedMs: 0 }, 10 * HOUR, HOUR)).toBe(
      'none',
    );
  });

  it('is approved for an ASK whose call ran, whenever it ran', () => {
    expect(teamRecordOutcome({ effective: 'ASK', outcomeMs: 5, receivedMs: 0 }, 1, HOUR)).toBe('approved');
    expect(teamRecordOutcome({ effective: 'ASK', outcomeMs: 5 * HOUR, receivedMs: 0 }, 10 * HOUR, HOUR)).toBe(
      'approved',
    );
  });

  it('is pending for an unanswered ASK up to the window and declined after it', () => {
    const ask = { effective: 'ASK' as const, outcomeMs: null, receivedMs: 1000 };
    expect(teamRecordOutcome(ask, 1000, HOUR)).toBe('pending');
    expect(teamRecordOutcome(ask, 1000 + HOUR, HOUR)).toBe('pending');
    expect(teamRecordOutcome(ask, 1000 + HOUR + 1, HOUR)).toBe('declined');
  });
});
