import type { EngineCalibration } from '../../calibrated-engine.js';

/**
 * The built-in engine's calibration: one temperature per kind of evidence (`evidenceKindOf`),
 * fitted by log-loss (`calibrateSamples`) with `bench/lexical-calibrate.mjs` on the tune halves of
 * public development sets of each kind of task (bench/data/lexical-public-dev/README.md: HWU64,
 * SNIPS, MRPC, WikiQA, SMS spam, TweetEval emotion and sentiment, SST dev, TREC training
 * questions, and each label of the SNIPS, TREC and emotion Choices asked as a Noul of its own);
 * their held-out halves and the hand-written suite, on which docs/benchmarks.md reports the
 * calibration error, are never fitted.
 *
 * Above one softens. On the held-out halves: a topical claim ("Is this message spam?", "Does the
 * user want to get weather?", judged by the words the state shares with the claim) was 0.67 sure
 * at 0.59 accuracy (0.59 after); a claim of a feeling ("Does this tweet express joy?") 0.77 sure
 * at 0.73 (0.73 after); a Choice among a few options answered by the state's tone (which
 * emotion?) 0.73 sure at 0.59 (0.59 after); two sentences compared as paraphrases were sure of
 * "no" far beyond their accuracy. Below one sharpens: a Score of valence was 0.40 sure at 0.46
 * (0.42 after).
 *
 * Kept at one by rule (bench/lexical-calibrate.mjs says why): two texts compared are never
 * sharpened (the answer relation fitted 0.670); Choices among many options, on which the lexical
 * weights' sharpness was fitted, are left as they are. Kinds without public development data
 * (entailment, urgency, hostility, a contradicted value) keep their answers as they are.
 */
export const BUILTIN_CALIBRATION: EngineCalibration = {
  evidence: {
    'choice:answer-kind': { temperature: 1.062 },
    'choice:answer-kind-many': { temperature: 1 },
    'choice:topical': { temperature: 1.167 },
    'choice:topical-many': { temperature: 1 },
    'choice:valence': { temperature: 1.834 },
    'choice:valence-many': { temperature: 1 },
    'noul:relation-answer': { temperature: 1 },
    'noul:relation-paraphrase': { temperature: 2.59 },
    'noul:topical': { temperature: 1.949 },
    'noul:valence': { temperature: 1.303 },
    'score:valence': { temperature: 0.872 },
  },
};
