import { redact } from '@arbiter/decision';
import { type Feedback, failingCriteria, type Grade, type Rubric, rubricFeedback } from '@arbiter/rubric';
import { generateText } from 'ai';
import type { FeedbackModel } from './feedback-model-spec.js';

export interface ModelFeedbackOptions {
  model: FeedbackModel;
  rubric: Rubric;
  grade: Grade;
  /** The work that was graded, so the feedback can point at its parts. */
  work: string;
  signal?: AbortSignal;
  /** Default 60 s: a coding model writing a paragraph, not a decision under a 5-second budget. */
  timeoutMs?: number;
  /** Retries of a failed model call (the AI SDK's backoff between them). Default 1. */
  maxRetries?: number;
}

const SYSTEM_PROMPT = [
  'You review work against a rubric and write revision feedback for its author.',
  'Address only the failing criteria you are given, one short paragraph each, headed by the criterion id.',
  'Quote the level description the work must reach, say concretely what in the work falls short and what to change.',
  'Do not grade, do not praise, do not restate passing criteria.',
].join(' ');

/**
 * Feedback written by the coding model (any AI SDK provider), tied to the failing criteria. When the
 * model call fails the rubric's deterministic feedback stands in, and `modelError` says why, so a
 * broken model configuration is visible rather than silently ignored.
 */
export async function modelFeedback(options: ModelFeedbackOptions): Promise<Feedback> {
  const failing = failingCriteria(options.rubric, options.grade).map((entry) => ({
    id: entry.grade.id,
    required: entry.grade.required,
    criterion: entry.asked,
    result: entry.figure,
    ...(entry.reachedLevel === undefined ? {} : { currently: entry.reachedLevel }),
    ...(entry.needed === undefined ? {} : { needed: entry.needed }),
  }));
  const prompt = [
    `Rubric: ${options.rubric.definition.name} ${options.rubric.definition.version}`,
    `Failing criteria (JSON): ${JSON.stringify(failing)}`,
    'The work:',
    '<work>',
    // The provider is a third party: the work goes out redacted, as the decision request's state does.
    redact(options.work),
    '</work>',
  ].join('\n');
  try {
    const result = await generateText({
      model: options.model.model,
      system: SYSTEM_PROMPT,
      prompt,
      maxRetries: options.maxRetries ?? 1,
      timeout: options.timeoutMs ?? 60_000,
      ...(options.signal === undefined ? {} : { abortSignal: options.signal }),
    });
    const text = result.text.trim();
    if (text === '') throw new Error('the model returned no text');
    return { text, source: 'model', model: options.model.label };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...rubricFeedback(options.rubric, options.grade),
      modelError: redact(`${options.model.label}: ${message}`),
    };
  }
}
