import type { Answer } from '../wire/answer.js';
import type { Question } from '../wire/question.js';
import type { PackReference, State } from '../wire/request.js';
import type { Usage } from '../wire/response.js';

/**
 * The engine specification: the one small contract between the code that asks questions
 * (server, in-process client) and the code that answers them (built-in analysers, model servers).
 * Kept apart from its implementations, in the spirit of the AI SDK's provider package.
 */
export interface DecisionEngine {
  /** Bumped when this contract changes, so implementations can be adapted in one place. */
  readonly specificationVersion: 'v1';
  /** Engine family, e.g. `builtin` or `llm`. */
  readonly engineId: string;
  /**
   * Evaluate every question against one state, concurrently. Must honour `signal` while it waits
   * (an engine that answers synchronously has nothing to stop and need not read it; callers do not
   * start an evaluation whose signal has already aborted); must return one answer per question id
   * that matches the question's type; must not invent usage.
   */
  evaluate(options: EvaluateOptions): Promise<EvaluateResult>;
}

export interface EvaluateOptions {
  state: State;
  questions: Readonly<Record<string, Question>>;
  /** The decision pack that asked, when one did (Arbiter extension). */
  pack?: PackReference | undefined;
  /**
   * May be an accessor that makes the signal on first read (the in-process transport's is): read
   * `options.signal` where it is needed rather than copying the options with a spread.
   */
  signal?: AbortSignal | undefined;
}

export interface EvaluateResult {
  answers: Record<string, Answer>;
  usage: Usage;
}
