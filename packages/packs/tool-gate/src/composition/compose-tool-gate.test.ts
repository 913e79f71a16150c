import type { ChoiceAnswer, NoulAnswer } from '@arbiter/decision';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOOL_GATE_THRESHOLDS as T } from '../pack/tool-gate-thresholds.js';
import { composeToolGate } from './compose-tool-gate.js';
import type { ToolGateAnswers } from './tool-gate-answers.js';

const noul = (value: number): NoulAnswer => ({ type: 'noul', noul: value });
const disposition = (
  choice: 'allow' | 'deny' | 'ask',
  confidence: number,
  abstained = false,
): ChoiceAnswer => ({
  type: 'choice',
  choice,
  confidence,
  probabilities: { allow: 0, deny: 0, ask: 0, [choice]: confidence },
  ...(abstained ? { arbiter: { engine: 'stub', abstained: true } } : {}),
});

/** Answers that satisfy rule 4 exactly; each test moves one of them. */
const allowing = (overrides: Partial<ToolGateAnswers> = {}): ToolGateAnswers => ({
  in_grant: noul(0.95),
  args_plausible: noul(0.95),
  on_task: noul(0.95),
  destructive: noul(0.01),
  exfil_risk: noul(0.01),
  disposition: disposition('allow', 0.9),
  ...overrides,
});

const compose = (answers: ToolGateAnswers, policy: 'allow' | 'ask' | 'deny' | 'none' = 'none') =>
  composeToolGate({ policy, skipped: false, answers }, T);

const just = 1e-9;

describe('composeToolGate', () => {
  it('rule 1: a policy denial wins over answers that would allow', () => {
    const result = compose(allowing(), 'deny');
    expect(result).toMatchObject({ verdict: 'DENY', rule: 1, decided_by: 'policy' });
  });

  describe('rule 2: risk at or above deny_noul denies', () => {
    for (const id of ['destructive', 'exfil_risk'] as const) {
      it(`${id} = deny_noul denies`, () => {
        expect(compose(allowing({ [id]: noul(T.deny_noul) }))).toMatchObject({ verdict: 'DENY', rule: 2 });
      });
      it(`${id} just above deny_noul denies`, () => {
        expect(compose(allowing({ [id]: noul(T.deny_noul + just) }))).toMatchObject({
          verdict: 'DENY',
          rule: 2,
        });
      });
      it(`${id} just below deny_noul does not deny by rule 2`, () => {
        const result = compose(
          allowing({ [id]: noul(T.deny_noul - just), disposition: disposition('ask', 0.6) }),
        );
        expect(result).toMatchObject({ verdict: 'ASK', rule: 5 });
      });
    }
    it('wins over a confident allow disposition', () => {
      expect(compose(allowing({ destructive: noul(0.99) }))).toMatchObject({ verdict: 'DENY', rule: 2 });
    });
  });

  describe('rule 3: a confident deny disposition denies', () => {
    it('confidence = allow_confidence denies', () => {
      expect(compose({ disposition: disposition('deny', T.allow_confidence) })).toMatchObject({
        verdict: 'DENY',
        rule: 3,
      });
    });
    it('confidence just above denies', () => {
      expect(compose({ disposition: disposition('deny', T.allow_confidence + just) })).toMatchObject({
        rule: 3,
      });
    });
    it('confidence just below is no opinion', () => {
      expect(compose({ disposition: disposition('deny', T.allow_confidence - just) })).toMatchObject({
        verdict: null,
        rule: null,
        decided_by: 'none',
      });
    });
  });

  describe('rule 4: allow needs every condition', () => {
    it('all conditions met allows', () => {
      expect(compose(allowing())).toMatchObject({ verdict: 'ALLOW', rule: 4, decided_by: 'gate' });
    });
    it('confidence = allow_confidence allows; just below does not', () => {
      expect(compose(allowing({ disposition: disposition('allow', T.allow_confidence) }))).toMatchObject({
        rule: 4,
      });
      expect(
        compose(allowing({ disposition: disposition('allow', T.allow_confidence - just) })),
      ).toMatchObject({
        verdict: null,
      });
      expect(
        compose(allowing({ disposition: disposition('allow', T.allow_confidence + just) })),
      ).toMatchObject({ rule: 4 });
    });
    for (const id of ['in_grant', 'args_plausible', 'on_task'] as const) {
      it(`${id} = allow_noul allows, just below does not, just above does`, () => {
        expect(compose(allowing({ [id]: noul(T.allow_noul) }))).toMatchObject({ verdict: 'ALLOW' });
        expect(compose(allowing({ [id]: noul(T.allow_noul - just) }))).toMatchObject({
          verdict: null,
          rule: null,
        });
        expect(compose(allowing({ [id]: noul(T.allow_noul + just) }))).toMatchObject({ verdict: 'ALLOW' });
      });
      it(`a missing ${id} answer never allows`, () => {
        const answers = { ...allowing() } as Record<string, unknown>;
        delete answers[id];
        expect(compose(answers as ToolGateAnswers)).toMatchObject({ verdict: null });
      });
    }
    for (const id of ['destructive', 'exfil_risk'] as const) {
      it(`${id} = allow_risk_max does not allow, just below does, just above does not`, () => {
        expect(compose(allowing({ [id]: noul(T.allow_risk_max) }))).toMatchObject({ verdict: null });
        expect(compose(allowing({ [id]: noul(T.allow_risk_max - just) }))).toMatchObject({
          verdict: 'ALLOW',
        });
        expect(compose(allowing({ [id]: noul(T.allow_risk_max + just) }))).toMatchObject({ verdict: null });
      });
    }
    it('a static ask rule turns the ALLOW into ASK', () => {
      expect(compose(allowing(), 'ask')).toMatchObject({ verdict: 'ASK', rule: 4, decided_by: 'policy' });
    });
  });

  describe('rule 5: ask as an opinion', () => {
    it('ask with any confidence above 0 asks', () => {
      expect(compose({ disposition: disposition('ask', 0.3) })).toMatchObject({ verdict: 'ASK', rule: 5 });
    });
    it("the stub's ask at confidence 0 is no opinion", () => {
      expect(compose({ disposition: disposition('ask', 0) })).toMatchObject({ verdict: null, rule: null });
    });
    it('an abstained ask is no opinion', () => {
      expect(compose({ disposition: disposition('ask', 0.5, true) })).toMatchObject({ verdict: null });
    });
  });

  describe('no opinion: the existing policy decides and the record says so', () => {
    it('policy allow → ALLOW decided by the policy', () => {
      expect(compose({ disposition: disposition('ask', 0) }, 'allow')).toMatchObject({
        verdict: 'ALLOW',
        rule: null,
        decided_by: 'policy',
      });
    });
    it('policy ask → ASK', () => {
      expect(compose({}, 'ask')).toMatchObject({ verdict: 'ASK', decided_by: 'policy' });
    });
    it('no policy → no decision', () => {
      const result = compose({});
      expect(result).toMatchObject({ verdict: null, decided_by: 'none' });
      expect(result.reason).toContain('no opinion');
    });
  });

  describe('rule 6: a skipped service falls back to the existing policy visibly', () => {
    it('names the skip reason', () => {
      const result = composeToolGate({ policy: 'none', skipped: true, skipReason: 'timeout' }, T);
      expect(result).toMatchObject({ verdict: null, rule: 6 });
      expect(result.reason).toContain('timeout');
    });
    it('keeps a policy allow', () => {
      expect(
        composeToolGate({ policy: 'allow', skipped: true, skipReason: 'server_error' }, T),
      ).toMatchObject({
        verdict: 'ALLOW',
        rule: 6,
        decided_by: 'policy',
      });
    });
    it('never lets a skip override a policy denial', () => {
      expect(composeToolGate({ policy: 'deny', skipped: true, skipReason: 'timeout' }, T)).toMatchObject({
        rule: 1,
      });
    });
  });

  it('honours other thresholds', () => {
    const strict = { ...T, deny_noul: 0.5 };
    expect(
      composeToolGate(
        { policy: 'none', skipped: false, answers: allowing({ destructive: noul(0.5) }) },
        strict,
      ),
    ).toMatchObject({ verdict: 'DENY', rule: 2 });
  });
});

describe('composeToolGate with a team allow rule', () => {
  const team = (answers: ToolGateAnswers, policy: 'allow' | 'ask' | 'deny' | 'none' = 'none') =>
    composeToolGate({ policy, skipped: false, answers, teamAllow: 'Bash(npm run build:*)' }, T);

  it("turns the analysis's ASK into ALLOW, decided by the team", () => {
    const result = team(allowing({ disposition: disposition('ask', 0.6) }));
    expect(result).toEqual({
      verdict: 'ALLOW',
      rule: 5,
      decided_by: 'team',
      reason: 'disposition ask at confidence 0.6; allowed by the team rule Bash(npm run build:*)',
    });
  });

  it('turns an ASK into ALLOW under a static allow rule too (the analysis asked, not the user)', () => {
    expect(team(allowing({ disposition: disposition('ask', 0.6) }), 'allow')).toMatchObject({
      verdict: 'ALLOW',
      decided_by: 'team',
    });
  });

  it('never overrides a DENY of the analysis (rules 2 and 3)', () => {
    expect(team(allowing({ destructive: noul(T.deny_noul) }))).toMatchObject({ verdict: 'DENY', rule: 2 });
    expect(team(allowing({ disposition: disposition('deny', 0.9) }))).toMatchObject({
      verdict: 'DENY',
      rule: 3,
      decided_by: 'gate',
    });
  });

  it('never overrides a static deny or ask rule', () => {
    const asking = allowing({ disposition: disposition('ask', 0.6) });
    expect(team(asking, 'deny')).toMatchObject({ verdict: 'DENY', rule: 1, decided_by: 'policy' });
    expect(team(asking, 'ask')).toMatchObject({ verdict: 'ASK', rule: 5, decided_by: 'gate' });
    expect(team(allowing(), 'ask')).toMatchObject({ verdict: 'ASK', decided_by: 'policy' });
  });

  it('does not turn a skipped gate or no opinion into ALLOW', () => {
    expect(team(allowing({ disposition: disposition('ask', 0, true) }))).toMatchObject({
      verdict: null,
      decided_by: 'none',
    });
  });

  it('changes nothing when no team rule covers the call', () => {
    const asking = allowing({ disposition: disposition('ask', 0.6) });
    expect(composeToolGate({ policy: 'none', skipped: false, answers: asking, teamAllow: null }, T)).toEqual(
      compose(asking),
    );
  });
});
