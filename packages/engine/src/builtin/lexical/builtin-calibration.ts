import type { EngineCalibration } from '../../calibrated-engine.js';

/**
 * The built-in engine's calibration, fitted with `bench/lexical-calibrate.mjs` on the tune halves
 * of public development sets of each kind of task (bench/data/lexical-public-dev/README.md: HWU64,
 * SNIPS, MRPC, WikiQA, SMS spam, TweetEval emotion and sentiment, SST dev, TREC training questions,
 * and each label of the SNIPS, TREC and emotion Choices asked as a Noul of its own); their held-out
 * halves and the hand-written suite, on which docs/benchmarks.md reports the calibration error,
 * are never fitted.
 *
 * - A Noul's kind of evidence (`evidenceKindOf`) takes a monotone map of P(yes)
 *   (`fitMonotoneMap`: isotonic over bins of 40, each rate shrunk towards one half by 10
 *   pseudo-answers), because its confidence was not monotone in its accuracy: a topical claim
 *   ("Is this message spam?") judged 0.31 was right to say no about half the time and one judged
 *   0.45 was wrong to say no four times in five, which a temperature (symmetric about one half)
 *   cannot mend. Two texts compared and topical claims are only ever softened (each answer stays
 *   between its raw value and one half): the first hidden suite found pairs at chance on pairs
 *   unlike these, and what words in common mean depends on the claim ("build" in "Is the build
 *   failing?" is no evidence that it fails), so a map fitted on these sets' label names must not
 *   sharpen it. A claim of a feeling follows its data both ways.
 * - A Score's kind takes a temperature (below one sharpens: a Score of valence was less sure than
 *   right).
 * - A Choice takes the temperature of its kind of question, read from its wording alone
 *   (`choiceKindOf`: which feeling, which type of answer, else any), never from its options or
 *   evidence, so removing an option keeps the others' proportions (the choice-set law). Which
 *   emotion a tweet expresses was 0.70 sure at 0.55 right, hence 2.8; intents stay near one; the
 *   type of answer a question expects is sharpened (0.77) since a head noun the lexicon does not
 *   place weighs half (answer-type.ts), which left the interrogative rules less sure than right.
 *
 * Refitted after claims of a feeling on states without valenced words became abstentions (they
 * had been topical answers), a yes/no question's coordinated phrases stopped being claims of their
 * own, and a claim names a feeling only by the words that carry its valence (SNIPS "search creative
 * work" had been a claim of a feeling, its answers fitted into the valence map); the topical and
 * valence maps moved.
 *
 * Kinds without public development data (entailment, urgency, hostility, a contradicted value)
 * keep their answers as they are, and no calibration moves an abstained answer (the prior).
 */
export const BUILTIN_CALIBRATION: EngineCalibration = {
  choice: { temperature: 0.998 },
  evidence: {
    'choice:answer-kind': { temperature: 0.767 },
    'choice:feeling': { temperature: 2.809 },
    'noul:relation-answer': {
      map: [
        [0.4034, 0.4034],
        [0.5008, 0.5],
        [0.5979, 0.5979],
      ],
    },
    'noul:relation-paraphrase': {
      map: [
        [0.01, 0.2344],
        [0.136, 0.358],
        [0.4142, 0.4142],
        [0.5174, 0.5],
        [0.5959, 0.5959],
      ],
    },
    'noul:topical': {
      map: [
        [0.3209, 0.4184],
        [0.5013, 0.5013],
        [0.6797, 0.6797],
      ],
    },
    'noul:valence': {
      map: [
        [0.0974, 0.2],
        [0.1533, 0.2371],
        [0.3262, 0.264],
        [0.6393, 0.5797],
        [0.739, 0.6518],
        [0.8111, 0.7526],
        [0.878, 0.8679],
      ],
    },
    'score:valence': { temperature: 0.872 },
  },
};
