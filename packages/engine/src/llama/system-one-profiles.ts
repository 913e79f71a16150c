/**
 * How each System One decision type is read, for the types whose answers are label tokens of the
 * vocabulary. Source: llama.rn's decision code (github.com/mybigday/llama.rn, cpp/rn-decision.cpp,
 * `llama_rn_decision_profile_for`), which serves the GGUF files of llama.cpp's "Decision models"
 * collection; nothing here is guessed. Types read from a decision head (kev: a pointer head; laya: an
 * encoder with a marker head; clef: a joint head) need graphs the llama.cpp bundled with
 * node-llama-cpp does not have, and are refused (see `HEAD_DECISION_TYPES`).
 */
export interface SystemOneProfile {
  /**
   * The answer labels: `letters` are A–Z then a–z, each of which must be one token; `codes` are A–Z
   * then AA–ZZ, keeping those that are one token, at most 255.
   */
  readonly labels: 'letters' | 'codes';
  /** The template is given each option's label text (`options[i].label`). */
  readonly labelTexts: boolean;
  /** Object keys of the template's input are sorted (the model was trained on sorted keys). */
  readonly sortKeys: boolean;
  /** A Choice is read twice, its options the second time in reverse order, and the two averaged. */
  readonly reverseVariant: boolean;
  /** A Noul is read as this many ratings (0 = certainly no … n − 1 = certainly yes); 0: as two options. */
  readonly noulRatings: number;
  /** A Noul's two options are given true first (otherwise false first). */
  readonly noulTrueFirst: boolean;
  /** The template is also given every question of the request (`questions`). */
  readonly listQuestions: boolean;
  /** How a temperature's bucket is named from the number of options. */
  readonly temperatureBuckets: 'size' | 'count';
}

const BASE: SystemOneProfile = {
  labels: 'letters',
  labelTexts: false,
  sortKeys: false,
  reverseVariant: false,
  noulRatings: 0,
  noulTrueFirst: false,
  listQuestions: false,
  temperatureBuckets: 'count',
};

/** The decision types whose answers are label tokens, by `<architecture>.decision.type`. */
export const LABEL_TOKEN_DECISION_TYPES: Readonly<Record<string, SystemOneProfile>> = {
  openjev: { ...BASE, labels: 'letters', noulTrueFirst: true },
  lev: {
    ...BASE,
    labels: 'codes',
    labelTexts: true,
    sortKeys: true,
    reverseVariant: true,
    noulRatings: 9,
    temperatureBuckets: 'size',
  },
  nimble: { ...BASE, labels: 'codes', labelTexts: true, listQuestions: true },
};

/** Decision types answered by a head of their own, and what that head is. */
export const HEAD_DECISION_TYPES: Readonly<Record<string, string>> = {
  kev: 'a pointer head over the options',
  laya: 'an encoder with a decision head at option markers',
  clef: 'a joint head over all questions and options',
};

/**
 * The temperature a question's label logits are divided by: `<type>.<bucket>`, else `<type>`, else 1.
 * Buckets are those the temperatures were fitted on.
 */
export function temperatureFor(
  temperatures: ReadonlyMap<string, number>,
  profile: SystemOneProfile,
  questionType: 'noul' | 'choice' | 'score',
  optionCount: number,
): number {
  const bucket =
    profile.temperatureBuckets === 'size'
      ? optionCount <= 8
        ? 'small'
        : optionCount <= 26
          ? 'mid'
          : 'large'
      : optionCount <= 2
        ? '2'
        : optionCount <= 5
          ? '3_5'
          : optionCount <= 10
            ? '6_10'
            : '11';
  return temperatures.get(`${questionType}.${bucket}`) ?? temperatures.get(questionType) ?? 1;
}
