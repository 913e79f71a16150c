import type { Answer, DecisionEngine, EvaluateOptions, EvaluateResult } from '@arbiter/decision';
import { z } from 'zod';
import { normalisedEntropyConfidence } from './answer-confidence.js';
import { evidenceKindOf } from './evidence-kind.js';
import { llmCalibrationSchema } from './llm/openai-compatible-config.js';
import { applyTemperature } from './llm/temperature-scaling.js';

/**
 * Temperature scaling of an engine's answers, one temperature per question type: the calibration
 * every engine kind takes (`calibration: { noul, choice, score }` in its catalog entry), fitted by
 * `calibrateSamples` (log-loss, `fitTemperature`) on labelled answers. A temperature above one
 * softens answers towards uniform (Noul 0.5); below one it sharpens them. Zero stays zero, so an
 * option the engine ruled out stays ruled out, and the order of the outcomes never changes, so the
 * pick and accuracy are the same before and after.
 *
 * `evidence` holds temperatures per kind of evidence (`evidenceKindOf`, e.g. `noul:topical`); an
 * answer whose kind has one takes it instead of its type's. Only engines that name their evidence
 * (the built-in one) have kinds; a model's answers take their type's temperature.
 */
export const engineCalibrationSchema = llmCalibrationSchema.extend({
  evidence: z
    .record(z.string().min(1), z.strictObject({ temperature: z.number().positive().max(100) }))
    .optional(),
});
/** The `calibration` member of every engine kind's catalog entry (written by `arbiter calibrate`). */
export type EngineCalibration = z.infer<typeof engineCalibrationSchema>;

/**
 * The temperature `calibration` gives `answer`: its evidence kind's, else its type's, else one.
 * A Choice always takes its type's: its evidence kind can change when an option is removed (the
 * winning option's evidence, whether any option names a kind of answer), and a temperature that
 * changed with it would move the other options' proportions, breaking the choice-set law.
 */
export function temperatureOf(answer: Answer, calibration: EngineCalibration): number {
  const kind = calibration.evidence && answer.type !== 'choice' ? evidenceKindOf(answer) : undefined;
  // An own property only, so a kind named like an Object.prototype member is no temperature.
  const byKind =
    kind !== undefined && Object.hasOwn(calibration.evidence!, kind)
      ? calibration.evidence![kind]
      : undefined;
  return byKind?.temperature ?? calibration[answer.type]?.temperature ?? 1;
}

/** One answer, scaled by the temperature of its kind or type; the pick, score and confidence follow. */
export function calibrateAnswer(answer: Answer, calibration: EngineCalibration): Answer {
  const temperature = temperatureOf(answer, calibration);
  if (temperature === 1) return answer;
  if (answer.type === 'noul') {
    const [noul] = applyTemperature([answer.noul, 1 - answer.noul], temperature);
    return { ...answer, noul: noul! };
  }
  const keys = Object.keys(answer.probabilities);
  const probabilities = applyTemperature(
    keys.map((key) => answer.probabilities[key]!),
    temperature,
  );
  // Coverage (a model engine's share of mass on valid labels) discounts confidence as before.
  const confidence = normalisedEntropyConfidence(probabilities) * (answer.arbiter?.coverage ?? 1);
  // fromEntries defines own properties, so an option named `__proto__` stays an option.
  const record = Object.fromEntries(keys.map((key, index) => [key, probabilities[index]!]));
  if (answer.type === 'choice') return { ...answer, confidence, probabilities: record };
  const score = keys.reduce((sum, key, index) => sum + Number(key) * probabilities[index]!, 0);
  return { ...answer, score, confidence, probabilities: record };
}

/** Whether every temperature of `calibration` is one (or it has none). */
export function isIdentity(calibration: EngineCalibration): boolean {
  const { evidence, ...byType } = calibration;
  return [...Object.values(byType), ...Object.values(evidence ?? {})].every(
    (entry) => entry?.temperature === 1,
  );
}

/**
 * Wraps `engine` so that every answer is calibrated; other members (an availability probe, a close
 * method) stay reachable as they were. No calibration, or every temperature one, returns `engine`.
 */
export function withCalibration<Engine extends DecisionEngine>(
  engine: Engine,
  calibration: EngineCalibration | undefined,
): Engine {
  if (!calibration || isIdentity(calibration)) return engine;
  const evaluate = async (request: EvaluateOptions): Promise<EvaluateResult> => {
    const result = await engine.evaluate(request);
    const answers = Object.fromEntries(
      Object.entries(result.answers).map(([id, answer]) => [id, calibrateAnswer(answer, calibration)]),
    );
    return { ...result, answers };
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
