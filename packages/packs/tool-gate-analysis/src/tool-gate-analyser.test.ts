import { answerSchema, type EvaluateOptions, type Question } from '@arbiter/decision';
import { describe, expect, it, vi } from 'vitest';
import { createToolGateAnalyser, toolGateAnalyser } from './tool-gate-analyser.js';

const noul = (instructions: string): Question => ({ type: 'noul', instructions });
const QUESTIONS: Record<string, Question> = {
  in_grant: noul('granted?'),
  args_plausible: noul('plausible?'),
  destructive: noul('destructive?'),
  exfil_risk: noul('exfiltration?'),
  on_task: noul('on task?'),
  disposition: {
    type: 'choice',
    instructions: 'what now?',
    criteria: { allow: null, deny: null, ask: null },
  },
};
const PACK = { name: 'arbiter/tool-gate', version: '1.0.0', sha256: 'a'.repeat(64) };
const STATE = { tool: 'Bash', arguments: { command: 'rm -rf /' }, grant: ['Bash'], task: 'Fix the tests.' };

function request(overrides: Partial<EvaluateOptions> = {}): EvaluateOptions {
  return { state: STATE, questions: QUESTIONS, pack: PACK, ...overrides };
}

describe('toolGateAnalyser', () => {
  it('accepts the pack with any subset of its six questions', () => {
    expect(toolGateAnalyser.accepts(request())).toBe(true);
    expect(toolGateAnalyser.accepts(request({ questions: { destructive: QUESTIONS.destructive! } }))).toBe(
      true,
    );
  });

  it('refuses other packs, unknown ids, wrong types and wrong disposition options', () => {
    expect(toolGateAnalyser.accepts(request({ pack: undefined }))).toBe(false);
    expect(toolGateAnalyser.accepts(request({ pack: { ...PACK, name: 'someone/else' } }))).toBe(false);
    expect(toolGateAnalyser.accepts(request({ questions: { ...QUESTIONS, mood: noul('?') } }))).toBe(false);
    expect(
      toolGateAnalyser.accepts(
        request({ questions: { destructive: { type: 'choice', instructions: '?', criteria: { a: null } } } }),
      ),
    ).toBe(false);
    expect(
      toolGateAnalyser.accepts(
        request({
          questions: {
            disposition: { type: 'choice', instructions: '?', criteria: { allow: null, deny: null } },
          },
        }),
      ),
    ).toBe(false);
    expect(toolGateAnalyser.accepts(request({ questions: {} }))).toBe(false);
  });

  it('answers exactly the questions asked, in the wire format, with evidence and null usage', async () => {
    const result = await toolGateAnalyser.evaluate(
      request({ questions: { destructive: QUESTIONS.destructive!, disposition: QUESTIONS.disposition! } }),
    );
    expect(Object.keys(result.answers).sort()).toEqual(['destructive', 'disposition']);
    for (const answer of Object.values(result.answers)) expect(answerSchema.parse(answer)).toEqual(answer);
    expect(result.answers.destructive).toMatchObject({
      type: 'noul',
      arbiter: { engine: 'builtin/tool-gate', abstained: false },
    });
    expect((result.answers.destructive as { noul: number }).noul).toBeGreaterThanOrEqual(0.9);
    expect(result.answers.destructive?.arbiter?.evidence).toContain('shell.rm.recursive-force:/');
    expect(result.answers.disposition).toMatchObject({ type: 'choice', choice: 'deny' });
    expect(result.usage).toEqual({ input_tokens: null, output_tokens: null });
  });

  it('reads a state given as a JSON string', async () => {
    const result = await toolGateAnalyser.evaluate(request({ state: JSON.stringify(STATE) }));
    expect(result.answers.disposition).toMatchObject({ choice: 'deny' });
  });

  it('abstains with uncertainty on states of another shape', async () => {
    for (const state of ['not json', { tool: 'Bash' }, [1, 2, 3], { tool: 'Bash', arguments: 'rm -rf /' }]) {
      const result = await toolGateAnalyser.evaluate(request({ state }));
      expect(result.answers.disposition).toMatchObject({ choice: 'ask', arbiter: { abstained: true } });
      expect(result.answers.args_plausible).toMatchObject({ noul: 0.5, arbiter: { abstained: true } });
    }
  });

  it('honours a signal that aborts while it waits for the shell grammar', async () => {
    // A fresh copy of the module graph: its grammar has not been loaded yet.
    vi.resetModules();
    const fresh = await import('./tool-gate-analyser.js');
    const controller = new AbortController();
    const evaluation = fresh.toolGateAnalyser.evaluate(request({ signal: controller.signal }));
    controller.abort(new Error('caller gave up'));
    await expect(evaluation).rejects.toThrow('caller gave up');
  });

  it('does not read the signal once the grammar is loaded: the analysis is synchronous', async () => {
    await toolGateAnalyser.evaluate(request());
    let reads = 0;
    const options = {
      ...request(),
      get signal() {
        reads += 1;
        return AbortSignal.abort();
      },
    };
    const result = await toolGateAnalyser.evaluate(options);
    expect(result.answers.destructive).toMatchObject({ type: 'noul' });
    expect(reads).toBe(0);
  });

  it('scores a probability distribution for the disposition', async () => {
    const result = await toolGateAnalyser.evaluate(
      request({ state: { ...STATE, arguments: { command: 'ls -la' } } }),
    );
    const disposition = result.answers.disposition as {
      choice: string;
      confidence: number;
      probabilities: Record<string, number>;
    };
    expect(disposition.choice).toBe('allow');
    const total = Object.values(disposition.probabilities).reduce((sum, value) => sum + value, 0);
    expect(total).toBeCloseTo(1, 2);
    expect(disposition.probabilities.allow).toBe(disposition.confidence);
  });
});

describe('the analyser follows the thresholds the operator configured', () => {
  it('a stricter allow_risk_max turns a low-risk allow into ask; the defaults still allow it', async () => {
    const options = {
      state: {
        tool: 'Bash',
        arguments: { command: 'rm build/old.log' },
        grant: ['Bash'],
        task: 'Tidy the build.',
      },
      questions: { disposition: QUESTIONS.disposition! },
      pack: PACK,
    };
    const loose = await toolGateAnalyser.evaluate(options);
    expect(loose.answers.disposition).toMatchObject({ choice: 'allow' });
    const strict = await createToolGateAnalyser({
      deny_noul: 0.7,
      allow_noul: 0.8,
      allow_risk_max: 0.05,
      allow_confidence: 0.75,
    }).evaluate(options);
    expect(strict.answers.disposition).toMatchObject({ choice: 'ask' });
  });
});
