import { DEFAULT_TOOL_GATE_THRESHOLDS as T } from '@arbiter/tool-gate/contract';
import { describe, expect, it } from 'vitest';
import { RISK } from './risk-scale.js';

describe('RISK', () => {
  it('rises step by step', () => {
    const steps = Object.values(RISK);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(new Set(steps).size).toBe(steps.length);
  });

  it("puts each step on the side of the pack's default thresholds that its name says", () => {
    for (const allowed of [RISK.none, RISK.routine, RISK.low]) expect(allowed).toBeLessThan(T.allow_risk_max);
    for (const asked of [RISK.askLow, RISK.ask, RISK.askHigh]) {
      expect(asked).toBeGreaterThanOrEqual(T.allow_risk_max);
      expect(asked).toBeLessThan(T.deny_noul);
    }
    // At deny_noul a destructive or exfiltration risk is denied by rule 2, but a disposition of
    // deny at this confidence is not acted on (rule 3 needs allow_confidence).
    expect(RISK.threshold).toBe(T.deny_noul);
    expect(RISK.threshold).toBeLessThan(T.allow_confidence);
    for (const denied of [RISK.deny, RISK.denyHigh, RISK.certain])
      expect(denied).toBeGreaterThanOrEqual(Math.max(T.deny_noul, T.allow_confidence));
  });

  it('keeps an allowed step allowed at the lowest on-task answer an ALLOW accepts', () => {
    // The disposition's allow confidence is 1 − risk − (0.9 − on_task); it must reach allow_confidence.
    expect(1 - RISK.low - (0.9 - T.allow_noul)).toBeGreaterThanOrEqual(T.allow_confidence - 1e-9);
  });
});
