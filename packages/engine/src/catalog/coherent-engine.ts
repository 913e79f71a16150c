import type {
  Answer,
  DecisionEngine,
  EvaluateOptions,
  EvaluateResult,
  Question,
  Usage,
} from '@arbiter/decision';
import { normalisedEntropyConfidence } from '../answer-confidence.js';

/**
 * The coherence laws of JevBench that a serving layer can guarantee whatever the engine behind it:
 *
 * 1. Question independence: an answer does not depend on which other questions are asked with it.
 *    Each question is sent to the engine on its own (unless the engine's kind answers questions
 *    independently by construction, when the request goes whole and the state is read once).
 * 2. Option-order invariance: reordering a Choice's options does not change their probabilities.
 *    The engine always sees the options in one canonical order (code-point order of their names),
 *    and the probabilities are handed back under the caller's names in the caller's order.
 * 3. Normalisation: a question's probabilities sum to one; an engine's drift is renormalised, and
 *    the choice, confidence and expected score are recomputed from the renormalised distribution.
 *
 * Not guaranteed here: independence from irrelevant alternatives (removing an option keeps the
 * others' proportions, Luce's choice axiom). It holds only when an engine scores each option
 * without looking at the others; a model prompted with the whole option list cannot promise it,
 * and no rewriting of its output can restore proportions it never computed. docs/engines.md lists
 * which kinds hold it by construction. A request that names a decision pack goes whole (a pack
 * asks a fixed set of questions that its analyser answers together).
 */
export interface CoherenceOptions {
  /** The engine answers each question from the state and that question alone. */
  readonly answersQuestionsIndependently?: boolean;
}

/**
 * Wraps `engine` so that its answers obey the coherence laws above. Every other member of the
 * engine (an availability probe, a close method of a kind added later) stays reachable as it was.
 */
export function withCoherence<Engine extends DecisionEngine>(
  engine: Engine,
  options: CoherenceOptions = {},
): Engine {
  const evaluate = async (request: EvaluateOptions): Promise<EvaluateResult> => {
    const entries = Object.entries(request.questions);
    const canonical = entries.map(([id, question]) => [id, canonicalQuestion(question)] as const);
    if (request.pack || options.answersQuestionsIndependently || entries.length <= 1) {
      const result = await engine.evaluate(withQuestions(request, Object.fromEntries(canonical)));
      return { answers: coherentAnswers(entries, result.answers), usage: result.usage };
    }
    const results = await Promise.all(
      canonical.map(([id, question]) => engine.evaluate(withQuestions(request, { [id]: question }))),
    );
    const answered: [string, Answer][] = [];
    let usage: Usage = { input_tokens: 0, output_tokens: 0 };
    for (const result of results) {
      // Every member is kept: one the engine added is reported by the caller's answer check.
      answered.push(...Object.entries(result.answers));
      usage = {
        input_tokens: sumOrUnknown(usage.input_tokens, result.usage.input_tokens),
        output_tokens: sumOrUnknown(usage.output_tokens, result.usage.output_tokens),
      };
    }
    // fromEntries defines own properties, so a question id such as `__proto__` stays an id.
    return { answers: coherentAnswers(entries, Object.fromEntries(answered)), usage };
  };
  return new Proxy(engine, {
    get(target, key) {
      if (key === 'evaluate') return evaluate;
      const value: unknown = Reflect.get(target, key, target);
      // Bound to the engine itself, so methods that use private state keep working.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The request with other questions; `signal` stays an accessor, read only where it is needed. */
function withQuestions(request: EvaluateOptions, questions: Record<string, Question>): EvaluateOptions {
  return {
    state: request.state,
    questions,
    pack: request.pack,
    get signal() {
      return request.signal;
    },
  };
}

/** A count that any call left unknown (null) is unknown in the sum. */
function sumOrUnknown(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A Choice with its options in code-point order; other questions unchanged (levels are ordered). */
function canonicalQuestion(question: Question): Question {
  if (question.type !== 'choice') return question;
  const given = Object.keys(question.criteria);
  // Already canonical: the question itself, not a copy (this runs on every request of the route).
  if (isSorted(given)) return question;
  const names = given.sort(byCodePoint);
  // fromEntries defines own properties, so an option named `__proto__` stays an option.
  return { ...question, criteria: Object.fromEntries(names.map((name) => [name, question.criteria[name]!])) };
}

/** Each answer with its probabilities under the caller's option order, renormalised when needed. */
function coherentAnswers(
  entries: ReadonlyArray<readonly [string, Question]>,
  answers: Record<string, Answer>,
): Record<string, Answer> {
  const questions = new Map(entries);
  // Members the engine added beyond the questions are kept, for the caller's answer check to see.
  return Object.fromEntries(
    Object.entries(answers).map(([id, answer]) => {
      const question = questions.get(id);
      return [id, question ? coherentAnswer(question, answer) : answer];
    }),
  );
}

const TOLERANCE = 1e-9;

function isSorted(names: readonly string[]): boolean {
  for (let index = 1; index < names.length; index++) if (names[index - 1]! > names[index]!) return false;
  return true;
}

/** The same names in the same order. */
function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

function coherentAnswer(question: Question, answer: Answer): Answer {
  if (answer.type !== question.type || answer.type === 'noul') return answer;
  const names =
    question.type === 'choice'
      ? Object.keys(question.criteria)
      : question.type === 'score'
        ? question.criteria.map((_, index) => String(index))
        : [];
  const given = answer.probabilities;
  const givenNames = Object.keys(given);
  // A distribution over other outcomes than the question's is left for the answer check to report.
  if (givenNames.length !== names.length || !names.every((name) => Object.hasOwn(given, name))) {
    return answer;
  }
  const values = names.map((name) => given[name]!);
  const total = values.reduce((sum, value) => sum + value, 0);
  const drifted = Math.abs(total - 1) > TOLERANCE;
  // A coherent answer whose probabilities are already in the caller's order is its own result:
  // the copy below would hold the same members in the same order (the common case, and per request).
  if (!drifted && (answer.type === 'score' || sameOrder(givenNames, names))) return answer;
  // No mass at all is no evidence: the uniform distribution.
  const probabilities = !drifted
    ? values
    : total > 0
      ? values.map((value) => value / total)
      : values.map(() => 1 / values.length);
  const record = Object.fromEntries(names.map((name, index) => [name, probabilities[index]!]));
  if (answer.type === 'choice') {
    if (!drifted) return { ...answer, probabilities: record };
    // Ties go to the first option in canonical order, so the pick does not follow the caller's order.
    const best = [...names]
      .sort(byCodePoint)
      .reduce((top, name) => (record[name]! > record[top]! ? name : top), [...names].sort(byCodePoint)[0]!);
    return {
      ...answer,
      choice: best,
      confidence: normalisedEntropyConfidence(probabilities),
      probabilities: record,
    };
  }
  if (!drifted) return answer;
  return {
    ...answer,
    score: probabilities.reduce((sum, probability, index) => sum + index * probability, 0),
    confidence: normalisedEntropyConfidence(probabilities),
    probabilities: record,
  };
}
