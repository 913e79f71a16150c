import { describe, expect, it } from 'vitest';
import { canonicalSha256 } from './canonical-sha256.js';
import { loadToolGatePack, TOOL_GATE_PACK, TOOL_GATE_PACK_NAME } from './tool-gate-pack.js';
import { TOOL_GATE_QUESTIONS } from './tool-gate-questions.js';

describe('tool-gate pack', () => {
  it('publishes the six questions with the default thresholds', () => {
    expect(Object.keys(TOOL_GATE_PACK.definition.questions).sort()).toEqual(
      ['args_plausible', 'destructive', 'disposition', 'exfil_risk', 'in_grant', 'on_task'].sort(),
    );
    expect(TOOL_GATE_PACK.definition.thresholds).toEqual({
      deny_noul: 0.7,
      allow_noul: 0.8,
      allow_risk_max: 0.2,
      allow_confidence: 0.75,
    });
    expect(TOOL_GATE_PACK.definition.name).toBe(TOOL_GATE_PACK_NAME);
    expect(TOOL_GATE_PACK.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes the same whether defaults are spelled out or left out', () => {
    const explicit = loadToolGatePack({
      name: TOOL_GATE_PACK_NAME,
      version: '1.0.0',
      questions: TOOL_GATE_QUESTIONS,
      thresholds: { deny_noul: 0.7, allow_noul: 0.8, allow_risk_max: 0.2, allow_confidence: 0.75 },
    });
    const partial = loadToolGatePack({ version: '1.0.0', thresholds: { allow_noul: 0.8 } });
    expect(explicit.sha256).toBe(TOOL_GATE_PACK.sha256);
    expect(partial.sha256).toBe(TOOL_GATE_PACK.sha256);
  });

  it('does not depend on key order', () => {
    const reordered = loadToolGatePack({
      thresholds: { allow_confidence: 0.75, allow_risk_max: 0.2, allow_noul: 0.8, deny_noul: 0.7 },
      version: '1.0.0',
      name: TOOL_GATE_PACK_NAME,
    });
    expect(reordered.sha256).toBe(TOOL_GATE_PACK.sha256);
    expect(canonicalSha256({ b: 1, a: [1, { d: 2, c: 3 }] })).toBe(
      canonicalSha256({ a: [1, { c: 3, d: 2 }], b: 1 }),
    );
  });

  it('changes with any threshold, the version or the wording', () => {
    const hashes = new Set([
      TOOL_GATE_PACK.sha256,
      loadToolGatePack({ version: '1.0.0', thresholds: { deny_noul: 0.71 } }).sha256,
      loadToolGatePack({ version: '1.0.0', thresholds: { allow_noul: 0.81 } }).sha256,
      loadToolGatePack({ version: '1.0.0', thresholds: { allow_risk_max: 0.19 } }).sha256,
      loadToolGatePack({ version: '1.0.0', thresholds: { allow_confidence: 0.76 } }).sha256,
      loadToolGatePack({ version: '1.0.1' }).sha256,
      loadToolGatePack({
        version: '1.0.0',
        questions: {
          ...TOOL_GATE_QUESTIONS,
          on_task: { type: 'noul', instructions: 'Does it serve the task?' },
        },
      }).sha256,
    ]);
    expect(hashes.size).toBe(7);
  });

  it('refuses allow_risk_max at or above deny_noul', () => {
    expect(() => loadToolGatePack({ version: '1.0.0', thresholds: { allow_risk_max: 0.7 } })).toThrow(
      /allow_risk_max must be below deny_noul/,
    );
    expect(() => loadToolGatePack({ version: '1.0.0', thresholds: { deny_noul: 0.1 } })).toThrow(
      /allow_risk_max/,
    );
  });

  it('refuses probabilities out of range, unknown members and a bad disposition', () => {
    expect(() => loadToolGatePack({ version: '1.0.0', thresholds: { allow_noul: 1.2 } })).toThrow(
      /allow_noul/,
    );
    expect(() => loadToolGatePack({ version: '1.0.0', extra: true } as never)).toThrow(/extra/);
    expect(() => loadToolGatePack({ version: 'one' })).toThrow(/semantic version/);
    expect(() =>
      loadToolGatePack({
        version: '1.0.0',
        questions: {
          ...TOOL_GATE_QUESTIONS,
          disposition: { type: 'choice', instructions: 'x', criteria: { allow: null, deny: null } },
        },
      }),
    ).toThrow(/allow, deny and ask/);
  });
});
