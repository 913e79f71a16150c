import type { ChoiceAnswer, NoulAnswer, ScoreAnswer } from '../wire/answer.js';
import type { Question } from '../wire/question.js';

/** A Choice answer whose `choice` and `probabilities` are keyed by the question's option names. */
export type TypedChoiceAnswer<Option extends string> = Omit<ChoiceAnswer, 'choice' | 'probabilities'> & {
  choice: Option;
  probabilities: Record<Option, number>;
};

/** The answer type of one question: Noul → `NoulAnswer`, Choice → `TypedChoiceAnswer<options>`, Score → `ScoreAnswer`. */
export type AnswerFor<Q extends Question> = Q extends { type: 'noul' }
  ? NoulAnswer
  : Q extends { type: 'choice'; criteria: infer Criteria }
    ? TypedChoiceAnswer<Extract<keyof Criteria, string>>
    : Q extends { type: 'score' }
      ? ScoreAnswer
      : never;

/** The answers of a question map, one per question id. */
export type AnswersFor<Questions extends Readonly<Record<string, Question>>> = {
  [Id in keyof Questions]: AnswerFor<Questions[Id]>;
};
