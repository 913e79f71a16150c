import type { Answer, DecisionEngine, QuestionType } from '@arbiter/decision';
import type { LlmCalibration, OpenAICompatibleEngineConfigInput } from '../openai-compatible-config.js';
import {
  createOpenAICompatibleEngine,
  type OpenAICompatibleEngineOptions,
} from '../openai-compatible-engine.js';
import { applyTemperature } from '../temperature-scaling.js';
import { type CalibrationMetrics, calibrationMetrics } from './calibration-metrics.js';
import type { CalibrationSample } from './calibration-sample.js';
import { expectedOutcomeIndex, type LabelledExample } from './labelled-example.js';
import { fitTemperature } from './temperature-fit.js';

export interface QuestionTypeCalibration {
  readonly type: QuestionType;
  readonly count: number;
  readonly temperature: number;
  readonly before: CalibrationMetrics;
  readonly after: CalibrationMetrics;
}

export interface CalibrationReport {
  /** One entry per question type present in the data, in the order noul, choice, score. */
  readonly byType: readonly QuestionTypeCalibration[];
  /** The `calibration` member to store in the catalog entry. */
  readonly calibration: LlmCalibration;
}

/**
 * Asks the model every labelled question without any calibration, then fits one temperature per
 * question type by minimising log loss and reports ECE, Brier and log loss before and after.
 */
export async function calibrateOpenAICompatibleEngine(options: {
  config: OpenAICompatibleEngineConfigInput;
  examples: readonly LabelledExample[];
  engineOptions?: OpenAICompatibleEngineOptions;
  signal?: AbortSignal;
}): Promise<CalibrationReport> {
  const { calibration: _previous, ...uncalibrated } = options.config;
  const engine = createOpenAICompatibleEngine(uncalibrated, options.engineOptions);
  return calibrateEngine({ engine, examples: options.examples, signal: options.signal });
}

/**
 * The same for an engine of any kind, created without a calibration (the built-in engine with
 * `calibration: {}`): asks every labelled question, fits one temperature per question type, and
 * returns the `calibration` member for the engine's catalog entry, whatever its kind.
 */
export async function calibrateEngine(options: {
  engine: DecisionEngine;
  examples: readonly LabelledExample[];
  signal?: AbortSignal;
}): Promise<CalibrationReport> {
  const { engine } = options;
  const samples = await Promise.all(
    options.examples.map(async (example, index) => {
      try {
        const { answers } = await engine.evaluate({
          state: example.state,
          questions: { example: example.question },
          signal: options.signal,
        });
        return {
          type: example.question.type,
          probabilities: outcomeProbabilities(example, answers.example!),
          expected: expectedOutcomeIndex(example.question, example.expected),
        };
      } catch (error) {
        throw new Error(`example ${index + 1}: ${(error as Error).message}`, { cause: error });
      }
    }),
  );
  return calibrateSamples(samples);
}

/** The fitting half of calibration, apart from the model calls. */
export function calibrateSamples(
  samples: ReadonlyArray<CalibrationSample & { readonly type: QuestionType }>,
): CalibrationReport {
  const byType: QuestionTypeCalibration[] = [];
  const calibration: LlmCalibration = {};
  for (const type of ['noul', 'choice', 'score'] as const) {
    const ofType = samples.filter((sample) => sample.type === type);
    if (ofType.length === 0) continue;
    const temperature = fitTemperature(ofType);
    const scaled = ofType.map((sample) => ({
      probabilities: applyTemperature(sample.probabilities, temperature),
      expected: sample.expected,
    }));
    byType.push({
      type,
      count: ofType.length,
      temperature,
      before: calibrationMetrics(ofType),
      after: calibrationMetrics(scaled),
    });
    calibration[type] = { temperature };
  }
  return { byType, calibration };
}

/** The answer's distribution in the outcome order of `expectedOutcomeIndex` (Noul: true, false). */
function outcomeProbabilities(example: LabelledExample, answer: Answer): number[] {
  const { question } = example;
  switch (question.type) {
    case 'noul':
      return answer.type === 'noul' ? [answer.noul, 1 - answer.noul] : [];
    case 'choice':
      return Object.keys(question.criteria).map((key) => probabilityOf(answer, key));
    case 'score':
      return question.criteria.map((_, index) => probabilityOf(answer, String(index)));
  }
}

function probabilityOf(answer: Answer, key: string): number {
  return answer.type === 'noul' ? 0 : (answer.probabilities[key] ?? 0);
}
