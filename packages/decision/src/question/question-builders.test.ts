import { describe, expect, expectTypeOf, it } from 'vitest';
import { DecisionClient } from '../client/decision-client.js';
import { createStubTransport } from '../transport/stub-transport.js';
import type { NoulAnswer, ScoreAnswer } from '../wire/answer.js';
import { questionSchema } from '../wire/question.js';
import { choice, noul, score } from './question-builders.js';
import type { AnswersFor } from './typed-answer.js';

const questions = {
  is_urgent: noul('Does this convey urgency?', { true: 'needs action today', false: 'can wait' }),
  department: choice('Which team should handle this?', {
    billing: 'payments and refunds',
    technical: null,
    sales: null,
  }),
  channel: choice('Where did it come from?', ['email', 'chat', 'phone']),
  severity: score('How severe is the issue?', ['Cosmetic', 'Workaround exists', 'Blocking; no workaround']),
};

describe('question builders', () => {
  it('build wire questions that the server schema accepts', () => {
    expect(questions.is_urgent).toEqual({
      type: 'noul',
      instructions: 'Does this convey urgency?',
      criteria: { true: 'needs action today', false: 'can wait' },
    });
    expect(questions.department.criteria).toEqual({
      billing: 'payments and refunds',
      technical: null,
      sales: null,
    });
    expect(questions.channel.criteria).toEqual({ email: null, chat: null, phone: null });
    expect(questions.severity.criteria).toEqual(['Cosmetic', 'Workaround exists', 'Blocking; no workaround']);
    for (const question of Object.values(questions)) expect(questionSchema.parse(question)).toEqual(question);
  });

  it('leave out Noul criteria when none are given', () => {
    expect(noul({ question: 'Is `a` larger than `b`?', a: 3, b: 2 })).toEqual({
      type: 'noul',
      instructions: { question: 'Is `a` larger than `b`?', a: 3, b: 2 },
    });
  });

  it('refuse an option listed twice', () => {
    expect(() => choice('Pick one', ['a', 'b', 'a'])).toThrow('choice option "a" is listed twice');
  });

  it('copy their inputs, so later edits of the caller do not change the question', () => {
    const levels = ['low', 'high'];
    const question = score('How much?', levels);
    levels.push('extreme');
    expect(question.criteria).toEqual(['low', 'high']);
  });

  it('infer answer types: score is a number, choice is the union of the option names', () => {
    type Answers = AnswersFor<typeof questions>;
    expectTypeOf<Answers['severity']['score']>().toEqualTypeOf<number>();
    expectTypeOf<Answers['severity']>().toEqualTypeOf<ScoreAnswer>();
    expectTypeOf<Answers['is_urgent']>().toEqualTypeOf<NoulAnswer>();
    expectTypeOf<Answers['department']['choice']>().toEqualTypeOf<'billing' | 'technical' | 'sales'>();
    expectTypeOf<Answers['channel']['choice']>().toEqualTypeOf<'email' | 'chat' | 'phone'>();
    expectTypeOf<Answers['department']['probabilities']>().toEqualTypeOf<
      Record<'billing' | 'technical' | 'sales', number>
    >();
    // @ts-expect-error a Noul answer has no confidence member
    expectTypeOf<Answers['is_urgent']['confidence']>().toBeNumber();
  });

  it('type hand-written wire questions too, options included', async () => {
    const client = new DecisionClient({ transport: createStubTransport() });
    const result = await client.decide({
      state: 's',
      questions: {
        flag: { type: 'noul', instructions: 'Is it?' },
        pick: { type: 'choice', instructions: 'Which?', criteria: { left: null, right: null } },
      },
    });
    if (result.skipped) throw new Error(result.message);
    expectTypeOf(result.answers.flag).toEqualTypeOf<NoulAnswer>();
    expectTypeOf(result.answers.pick.choice).toEqualTypeOf<'left' | 'right'>();
    expect(result.answers.pick.choice).toBe('left');
  });

  it('carry the inferred types through client.decide', async () => {
    const client = new DecisionClient({ transport: createStubTransport() });
    const result = await client.decide({ state: 'Payouts failing for 3 days', questions });
    if (result.skipped) throw new Error(result.message);
    expectTypeOf(result.answers.severity.score).toEqualTypeOf<number>();
    expectTypeOf(result.answers.department.choice).toEqualTypeOf<'billing' | 'technical' | 'sales'>();
    // @ts-expect-error 'marketing' is not an option of department
    const impossible: typeof result.answers.department.choice = 'marketing';
    expect(impossible).toBe('marketing');
    expect(result.answers.department.choice).toBe('billing');
    expect(result.answers.severity.score).toBe(1);
  });
});
