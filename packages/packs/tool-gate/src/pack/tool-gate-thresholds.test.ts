import { describe, expect, it } from 'vitest';
import { DEFAULT_TOOL_GATE_THRESHOLDS, resolveToolGateThresholds } from './tool-gate-thresholds.js';

describe('resolveToolGateThresholds', () => {
  it('lays overrides over the defaults, or over a given base', () => {
    expect(resolveToolGateThresholds()).toEqual(DEFAULT_TOOL_GATE_THRESHOLDS);
    expect(resolveToolGateThresholds({ deny_noul: 0.45 })).toEqual({
      ...DEFAULT_TOOL_GATE_THRESHOLDS,
      deny_noul: 0.45,
    });
    const base = resolveToolGateThresholds({ allow_noul: 0.9 });
    expect(resolveToolGateThresholds({ deny_noul: 0.6 }, base)).toMatchObject({
      allow_noul: 0.9,
      deny_noul: 0.6,
    });
  });

  it('refuses a combination that could allow and deny one call, naming the threshold', () => {
    expect(() => resolveToolGateThresholds({ deny_noul: 0.15 })).toThrow(
      /invalid tool-gate thresholds:[\s\S]*allow_risk_max must be below deny_noul/,
    );
    expect(() => resolveToolGateThresholds({ allow_noul: 1.5 })).toThrow(/allow_noul/);
  });
});
