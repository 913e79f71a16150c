import { describe, expect, it } from 'vitest';
import { isSeverityScale, severityDirectionOf, urgencyClaim, urgencyOf } from './urgency.js';

describe('urgency', () => {
  it('knows a claim of urgency, one that it can wait, and neither', () => {
    expect(urgencyClaim('Is this message urgent?')).toBe(1);
    expect(urgencyClaim('Does this need to be escalated immediately?')).toBe(1);
    expect(urgencyClaim('Can this wait until next week?')).toBe(-1);
    expect(urgencyClaim('Is the customer happy?')).toBe(0);
  });

  it('reads failures, reach, pressure and calm', () => {
    const outage = urgencyOf('Checkout is not working for every customer, please fix this right away!');
    expect(outage.failure).toBeGreaterThanOrEqual(1);
    expect(outage.impact).toBeGreaterThanOrEqual(1);
    expect(outage.pressure).toBeGreaterThanOrEqual(1);
    expect(urgencyOf('No rush, but the button colour could be a bit darker at some point.').calm).toBe(2);
    expect(urgencyOf('The weather was lovely in Lisbon.')).toEqual({
      failure: 0,
      impact: 0,
      pressure: 0,
      calm: 0,
    });
  });

  it('reads an attack written into the text as a threat', () => {
    expect(urgencyOf("name=' OR '1'='1").failure).toBe(1);
    expect(urgencyOf('GET /download?file=../../../etc/passwd').failure).toBeGreaterThanOrEqual(1);
    expect(urgencyOf('The select box does not union the tables').failure).toBe(0);
  });

  it('knows a scale of severity', () => {
    expect(isSeverityScale('How severe is this issue?')).toBe(true);
    expect(isSeverityScale('What priority should this ticket get?')).toBe(true);
    expect(isSeverityScale('How positive is this review?')).toBe(false);
  });
});

describe('a data breach', () => {
  it('is a threat, whatever verb names it', () => {
    for (const text of [
      'Someone exfiltrated our entire customer database to an external server',
      'The customer database was stolen last night',
    ])
      expect(urgencyOf(text).failure).toBeGreaterThan(0);
  });
});

describe('severityDirectionOf', () => {
  it('reads the way a scale runs from the severity its levels name', () => {
    expect(severityDirectionOf(['trivial', 'minor', 'major', 'critical'])).toBe(1);
    expect(severityDirectionOf(['Critical: blocking', 'Major', 'Minor: cosmetic'])).toBe(-1);
    // Levels that name no severity keep the wire format's order, lowest first.
    expect(severityDirectionOf(['one', 'two', 'three'])).toBe(1);
  });
});
