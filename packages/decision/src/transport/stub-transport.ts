import type { DecisionTransport } from '../client/decision-transport.js';
import type { Answer } from '../wire/answer.js';
import type { Question } from '../wire/question.js';

export const STUB_MODEL = 'stub';

/**
 * Answers without any service, for development and tests of code that embeds the client: every Noul
 * 0.5, every Choice `ask` (or its first option when `ask` is not an option), every Score the middle of a
 * uniform distribution, all at confidence 0 and marked `arbiter.abstained`: no evidence was looked at.
 */
export function createStubTransport(): DecisionTransport {
  return {
    name: 'stub',
    async send(request) {
      const answers: Record<string, Answer> = {};
      for (const [id, question] of Object.entries(request.questions)) answers[id] = stubAnswer(question);
      return { ok: true, body: { model: STUB_MODEL, answers, usage: { input_tokens: 0, output_tokens: 0 } } };
    },
  };
}

const abstained = { engine: STUB_MODEL, abstained: true } as const;

function stubAnswer(question: Question): Answer {
  switch (question.type) {
    case 'noul':
      return { type: 'noul', noul: 0.5, arbiter: { ...abstained } };
    case 'choice': {
      const options = Object.keys(question.criteria);
      const selected = options.includes('ask') ? 'ask' : (options[0] ?? '');
      return {
        type: 'choice',
        choice: selected,
        confidence: 0,
        probabilities: uniform(options),
        arbiter: { ...abstained },
      };
    }
    case 'score': {
      const levels = question.criteria.map((_, index) => String(index));
      return {
        type: 'score',
        score: (levels.length - 1) / 2,
        confidence: 0,
        probabilities: uniform(levels),
        legend: Object.fromEntries(
          question.criteria.map((description, index) => [String(index), description]),
        ),
        arbiter: { ...abstained },
      };
    }
  }
}

function uniform(keys: readonly string[]): Record<string, number> {
  return Object.fromEntries(keys.map((key) => [key, 1 / keys.length]));
}
