import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ScriptedChatServer,
  startScriptedChatServer,
} from '../../../test/support/scripted-chat-server.js';
import { calibrateOpenAICompatibleEngine } from './engine-calibration.js';
import { parseLabelledExamples } from './labelled-example.js';

// A loopback model server on the real chat-completions wire format. It reports the same top tokens
// for every prompt: for a Choice, A 0.9 / B 0.1; for a Score (levels 0-2), 2 0.9 / 1 0.1.
let server: ScriptedChatServer;
let baseURL: string;

beforeEach(async () => {
  server = await startScriptedChatServer(({ body }) =>
    body.messages[1].content.includes('Levels, lowest first')
      ? {
          top: [
            ['2', 0.9],
            ['1', 0.1],
          ],
        }
      : {
          top: [
            ['A', 0.9],
            ['B', 0.1],
          ],
        },
  );
  baseURL = server.baseURL;
});

afterEach(() => server.close());

function lines(count: number, make: (i: number) => object): string {
  return Array.from({ length: count }, (_, i) => JSON.stringify(make(i))).join('\n');
}

describe('calibrateOpenAICompatibleEngine', () => {
  it('reads Choice and Score answers in option order, ignores an existing calibration, and fits each type', async () => {
    // JavaScript enumerates the integer-like option name "7" before "billing", so "7" is label A and gets
    // 0.9. It is right 3 times in 4, so the fit must bring P(7) to 0.75; a mix-up of option order
    // between the engine and the calibration would score it right 1 time in 4 instead.
    const choice = { type: 'choice', instructions: 'team?', criteria: { billing: null, '7': null } };
    const score = { type: 'score', instructions: 'severity?', criteria: ['low', 'mid', 'high'] };
    const examples = parseLabelledExamples(
      [
        lines(20, (i) => ({ state: `c${i}`, question: choice, expected: i % 4 === 0 ? 'billing' : '7' })),
        lines(20, (i) => ({ state: `s${i}`, question: score, expected: i % 4 === 0 ? 1 : 2 })),
      ].join('\n'),
    );
    const report = await calibrateOpenAICompatibleEngine({
      config: {
        kind: 'openai-compatible',
        baseURL,
        model: 'm',
        calibration: { choice: { temperature: 50 } },
      },
      examples,
    });
    const [choiceFit, scoreFit] = report.byType;
    expect(choiceFit?.type).toBe('choice');
    expect(scoreFit?.type).toBe('score');
    // Raw answers (the configured temperature 50 is not applied while calibrating): right at 0.9 three
    // times, wrong at 0.1 once.
    expect(choiceFit!.before.logLoss).toBeCloseTo(-(3 * Math.log(0.9) + Math.log(0.1)) / 4, 10);
    const c = choiceFit!.temperature;
    expect(0.9 ** (1 / c) / (0.9 ** (1 / c) + 0.1 ** (1 / c))).toBeCloseTo(0.75, 6);
    // Score: level 2 at 0.9, level 1 at 0.1, right 3 times in 4 → P(2) falls to about 0.75 (level 0,
    // floored at 1e-6 inside the loss, takes a little of the mass).
    const t = scoreFit!.temperature;
    const p2 = 0.9 ** (1 / t) / (0.9 ** (1 / t) + 0.1 ** (1 / t) + 1e-6 ** (1 / t));
    expect(p2).toBeCloseTo(0.75, 2);
    expect(report.calibration).toEqual({
      choice: { temperature: choiceFit!.temperature },
      score: { temperature: t },
    });
  });
});
