import type { Answer, DecisionEngine, EvaluateOptions, EvaluateResult } from '@arbiter/decision';
import { z } from 'zod';
import { normalisedEntropyConfidence } from './answer-confidence.js';
import { evidenceKindOf } from './evidence-kind.js';
import { applyMonotoneMap } from './llm/calibration/monotone-map.js';
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
 * `evidence` holds calibrations per kind of evidence (`evidenceKindOf`, e.g. `noul:topical`) or,
 * for a Choice, per kind of question (`choiceKindOf`, e.g. `choice:feeling`); an answer whose kind
 * has one takes it instead of its type's. Only engines that name their evidence (the built-in one)
 * have kinds; a model's answers take their type's temperature. A kind's entry is a temperature, or
 * for Nouls a monotone `map` of the probability of yes (`fitMonotoneMap`): knots `[raw,
 * calibrated]`, raw increasing and calibrated never falling, for evidence whose confidence is not
 * monotone in its accuracy.
 */
const probability = z.number().min(0).max(1);
const monotoneMapSchema = z
  .array(z.tuple([probability, probability]))
  .min(1)
  .refine(
    (knots) =>
      knots.every(
        (knot, index) => index === 0 || (knot[0] > knots[index - 1]![0] && knot[1] >= knots[index - 1]![1]),
      ),
    'a calibration map needs raw probabilities that increase and calibrated ones that never fall',
  );
export const engineCalibrationSchema = llmCalibrationSchema.extend({
  evidence: z
    .record(
      z.string().min(1),
      z.union([
        z.strictObject({ temperature: z.number().positive().max(100) }),
        z.strictObject({ map: monotoneMapSchema }),
      ]),
    )
    .optional(),
});
/** The `calibration` member of every engine kind's catalog entry (written by `arbiter calibrate`). */
export type EngineCalibration = z.infer<typeof engineCalibrationSchema>;

type KindCalibration = NonNullable<EngineCalibration['evidence']>[string];

/**
 * The calibration `calibration` gives `answer`'s kind, if it has one. A Noul's or Score's kind is
 * its evidence's (`evidenceKindOf`). A Choice's is only ever `questionKind`, a kind read from the
 * question alone (`choiceKindOf`), never its evidence's: which evidence wins can change when an
 * option is removed (the winning option's, whether any option names a kind of answer), and a
 * temperature that changed with it would move the other options' proportions, breaking the
 * choice-set law. A map applies to Nouls only.
 */
function kindCalibrationOf(
  answer: Answer,
  calibration: EngineCalibration,
  questionKind: string | undefined,
): KindCalibration | undefined {
  if (!calibration.evidence) return undefined;
  const kind = answer.type === 'choice' ? questionKind : evidenceKindOf(answer);
  // An own property only, so a kind named like an Object.prototype member is no calibration.
  const byKind =
    kind !== undefined && Object.hasOwn(calibration.evidence, kind) ? calibration.evidence[kind] : undefined;
  return byKind !== undefined && 'map' in byKind && answer.type !== 'noul' ? undefined : byKind;
}

/**
 * The temperature `calibration` gives `answer`: its kind's (see `kindCalibrationOf`), else its
 * type's, else one. One for an answer its kind calibrates by a map.
 */
export function temperatureOf(answer: Answer, calibration: EngineCalibration, questionKind?: string): number {
  const byKind = kindCalibrationOf(answer, calibration, questionKind);
  if (byKind !== undefined && 'map' in byKind) return 1;
  return byKind?.temperature ?? calibration[answer.type]?.temperature ?? 1;
}

/**
 * One answer, through its kind's map or scaled by the temperature of its kind or type; the pick,
 * score and confidence follow. `questionKind` is a Choice's kind of question (`choiceKindOf`).
 */
export function calibrateAnswer(
  answer: Answer,
  calibration: EngineCalibration,
  questionKind?: string,
): Answer {
  // An abstained answer is the prior (uniform, Noul one half), not evidence: nothing to calibrate,
  // and a map of a kind's evidence must not move it. A Choice is the exception: its temperature is
  // the question's, and the choice-set law (removing an option keeps the others in proportion)
  // needs every answer to a question of that kind scaled alike, an abstained one whose options still
  // differ included; a uniform one stays uniform.
  if (answer.arbiter?.abstained && (answer.type !== 'choice' || isUniform(answer.probabilities)))
    return answer;
  const byKind = kindCalibrationOf(answer, calibration, questionKind);
  if (answer.type === 'noul' && byKind !== undefined && 'map' in byKind) {
    return { ...answer, noul: applyMonotoneMap(byKind.map, answer.noul) };
  }
  const temperature = temperatureOf(answer, calibration, questionKind);
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

function isUniform(probabilities: Readonly<Record<string, number>>): boolean {
  const values = Object.values(probabilities);
  return values.every((value) => value === values[0]);
}

/** Whether every temperature of `calibration` is one and it has no map (or it has none). */
export function isIdentity(calibration: EngineCalibration): boolean {
  const { evidence, ...byType } = calibration;
  return [...Object.values(byType), ...Object.values(evidence ?? {})].every(
    (entry) => entry !== undefined && 'temperature' in entry && entry.temperature === 1,
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
