import type { Answer } from '../wire/answer.js';
import type { Question } from '../wire/question.js';

/**
 * The typed answers promise one answer per question, of the question's type, with a Choice selection
 * among its options and a Score within its levels. Returns what is wrong, or undefined when all holds.
 */
export function findAnswerMismatch(
  questions: Readonly<Record<string, Question>>,
  answers: Readonly<Record<string, Answer>>,
): string | undefined {
  for (const [id, question] of Object.entries(questions)) {
    const answer = answers[id];
    if (answer === undefined) return `no answer for question "${id}"`;
    if (answer.type !== question.type) {
      return `question "${id}" is a ${question.type} but the answer is a ${answer.type}`;
    }
    if (
      question.type === 'choice' &&
      answer.type === 'choice' &&
      !Object.hasOwn(question.criteria, answer.choice)
    ) {
      return `question "${id}": "${answer.choice}" is not one of its options`;
    }
    if (
      question.type === 'score' &&
      answer.type === 'score' &&
      answer.score > question.criteria.length - 1 + 1e-9
    ) {
      return `question "${id}": score ${answer.score} is above its highest level ${question.criteria.length - 1}`;
    }
  }
  return undefined;
}
