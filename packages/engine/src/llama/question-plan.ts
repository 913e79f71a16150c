import type { Question } from '@arbiter/decision';
import type { Token } from 'node-llama-cpp';
import type { LabelledOutcome } from '../llm/labelled-outcome.js';

/** One order a question is read in: the outcomes as labelled in the prompt and its token sequences. */
export interface ReadingPlan {
  readonly outcomes: readonly LabelledOutcome[];
  /** The tokens after the request's shared prefix, up to where the answer starts. */
  readonly suffix: readonly Token[];
  readonly labels: readonly (readonly Token[])[];
  /** The label logits are divided by this before the softmax over the labels (a fitted calibration). */
  readonly temperature: number;
}

export interface QuestionPlan {
  readonly question: Question;
  /** Outcomes in the order the answer lists them. */
  readonly outcomes: readonly LabelledOutcome[];
  readonly readings: readonly ReadingPlan[];
  /**
   * Turns the readings' averaged distribution (by their outcome keys) into one over `outcomes`,
   * when the readings' outcomes are not the answer's (a Noul read as a rating scale).
   */
  readonly collapse?: (mean: ReadonlyMap<string, number>) => Map<string, number>;
}
