import type { EngineCalibration } from '../../calibrated-engine.js';

/**
 * The built-in engine's calibration: one temperature per kind of evidence (`evidenceKindOf`) for
 * Nouls and Scores, fitted by log-loss (`calibrateSamples`) with `bench/lexical-calibrate.mjs` on
 * the tune halves of public development sets of each kind of task
 * (bench/data/lexical-public-dev/README.md: HWU64, SNIPS, MRPC, WikiQA, SMS spam, TweetEval
 * emotion and sentiment, SST dev, TREC training questions, and each label of the SNIPS, TREC and
 * emotion Choices asked as a Noul of its own); their held-out halves and the hand-written suite,
 * on which docs/benchmarks.md reports the calibration error, are never fitted.
 *
 * Above one softens. On the held-out halves: a topical claim ("Is this message spam?", "Does the
 * user want to get weather?", judged by the words the state shares with the claim) was 0.67 sure
 * at 0.59 accuracy (0.59 after); a claim of a feeling ("Does this tweet express joy?") 0.77 sure
 * at 0.73 (0.73 after); two sentences compared as paraphrases were sure of "no" far beyond their
 * accuracy. Below one sharpens: a Score of valence was 0.40 sure at 0.46 (0.42 after).
 *
 * Kept at one by rule (bench/lexical-calibrate.mjs says why): two texts compared are never
 * sharpened (the answer relation fitted 0.670); a Choice takes one temperature for its type (the
 * choice-set law), and the one fitted (1.088) made the Choices the lexical weights' sharpness was
 * fitted on worse. Kinds without public development data (entailment, urgency, hostility, a
 * contradicted value) keep their answers as they are.
 */
export const BUILTIN_CALIBRATION: EngineCalibration = {
  choice: { temperature: 1 },
  evidence: {
    'noul:relation-answer': { temperature: 1 },
    'noul:relation-paraphrase': { temperature: 2.59 },
    'noul:topical': { temperature: 1.949 },
    'noul:valence': { temperature: 1.303 },
    'score:valence': { temperature: 0.872 },
  },
};
