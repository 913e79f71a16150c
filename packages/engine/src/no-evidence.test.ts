import { describe, expect, it } from 'vitest';
import { createBuiltinEngine } from './builtin/builtin-engine.js';
import { NO_EVIDENCE, questionsWithoutEvidence } from './no-evidence.js';

describe('questionsWithoutEvidence', () => {
  it('names the questions the built-in engine could not relate to the state', async () => {
    const { answers } = await createBuiltinEngine().evaluate({
      state: 'The weather is nice',
      questions: {
        unrelated: {
          type: 'choice',
          instructions: 'Which?',
          criteria: { a: 'about finance', b: 'about sports' },
        },
        nonsense: { type: 'noul', instructions: 'Is it flurbish?' },
        related: { type: 'noul', instructions: 'Is this about the weather?' },
      },
    });
    expect(questionsWithoutEvidence(answers)).toEqual(['unrelated', 'nonsense']);
    const unrelated = answers.unrelated!;
    expect(unrelated.arbiter?.evidence).toEqual([NO_EVIDENCE]);
    // No evidence is the prior, and its confidence is zero.
    expect(unrelated.type === 'choice' && unrelated.confidence).toBe(0);
    expect(unrelated.type === 'choice' && unrelated.probabilities).toEqual({ a: 0.5, b: 0.5 });
  }, 120_000);
});
