import type { Answer } from '@arbiter/decision';
import { describe, expect, it } from 'vitest';
import { createBuiltinEngine } from './builtin/builtin-engine.js';
import { choiceKindOf, evidenceKindOf } from './evidence-kind.js';

const noul = (evidence: string[], abstained = false): Answer => ({
  type: 'noul',
  noul: 0.7,
  arbiter: { engine: 'test', abstained, evidence },
});

describe('evidenceKindOf', () => {
  it('names the family of the first evidence code, by question type', () => {
    expect(evidenceKindOf(noul(['relation:paraphrase:0.40', 'negation-differs']))).toBe(
      'noul:relation-paraphrase',
    );
    expect(evidenceKindOf(noul(['near:spam~free']))).toBe('noul:topical');
    expect(evidenceKindOf(noul(['near:meeting~meeting', 'mismatch:friday~tuesday']))).toBe(
      'noul:contradicted-value',
    );
    expect(evidenceKindOf(noul(['valence:-0.50']))).toBe('noul:valence');
    expect(evidenceKindOf(noul(['urgency:1/0/0/-0']))).toBe('noul:urgency');
    expect(evidenceKindOf(noul(['entailment:entailment']))).toBe('noul:entailment');
    // A negated claim is calibrated as the claim it negates.
    expect(evidenceKindOf(noul(['negated', 'near:down~down']))).toBe('noul:topical');
    const choice: Answer = {
      type: 'choice',
      choice: 'a',
      confidence: 0.5,
      probabilities: { a: 0.6, b: 0.4 },
      arbiter: { engine: 'test', abstained: false, evidence: ['valence:0.20', 'term:card'] },
    };
    expect(evidenceKindOf(choice)).toBe('choice:valence');
    expect(evidenceKindOf({ ...choice, arbiter: { ...choice.arbiter!, evidence: ['term:card'] } })).toBe(
      'choice:topical',
    );
    expect(evidenceKindOf({ ...choice, arbiter: { ...choice.arbiter!, evidence: ['asks-for:place'] } })).toBe(
      'choice:answer-kind',
    );
  });

  it('names no kind without evidence, for compounds, for unknown codes and for a model', () => {
    expect(evidenceKindOf(noul(['no-evidence'], true))).toBeUndefined();
    expect(evidenceKindOf(noul(['and', 'near:a~a', 'near:b~b']))).toBeUndefined();
    expect(evidenceKindOf(noul(['something-new']))).toBeUndefined();
    expect(evidenceKindOf({ type: 'noul', noul: 0.9 })).toBeUndefined();
  });

  it('reads the codes the built-in engine writes', async () => {
    const { answers } = await createBuiltinEngine({ calibration: {} }).evaluate({
      state: { sentence1: 'The company reported higher profits.', sentence2: 'Profits at the company rose.' },
      questions: {
        paraphrase: { type: 'noul', instructions: 'Is sentence2 a paraphrase of sentence1?' },
        answer: { type: 'noul', instructions: 'Does sentence2 answer sentence1?' },
      },
    });
    expect(evidenceKindOf(answers.paraphrase!)).toBe('noul:relation-paraphrase');
    expect(evidenceKindOf(answers.answer!)).toBe('noul:relation-answer');
  });
});

describe('choiceKindOf', () => {
  const choice = (instructions: string) => ({
    type: 'choice' as const,
    instructions,
    criteria: { a: null, b: null },
  });

  it('reads the kind of question from its wording alone', () => {
    expect(choiceKindOf(choice('Which emotion does this tweet express?'))).toBe('choice:feeling');
    expect(choiceKindOf(choice('What is the sentiment of this review?'))).toBe('choice:feeling');
    expect(choiceKindOf(choice('What type of answer does this question expect?'))).toBe('choice:answer-kind');
    expect(choiceKindOf(choice('What does the user want the assistant to do?'))).toBe('choice');
    expect(choiceKindOf({ type: 'choice', criteria: { a: null } })).toBe('choice');
  });

  it('does not depend on the options, so removing or renaming one keeps the kind', () => {
    const question = choice('Which emotion does this tweet express?');
    expect(choiceKindOf({ ...question, criteria: { joy: 'happy', anger: null, sadness: null } })).toBe(
      choiceKindOf(question),
    );
  });
});
