import type { EngineCalibration } from '../../calibrated-engine.js';

/**
 * The built-in engine's calibration: one temperature per kind of evidence (`evidenceKindOf`),
 * fitted by log-loss (`calibrateSamples`) on the tune halves of public development sets of each
 * kind of task (bench/data/lexical-public-dev/README.md: HWU64, SNIPS, MRPC, WikiQA, SMS spam,
 * TweetEval emotion and sentiment, SST dev, TREC training questions) with
 * `bench/lexical-calibrate.mjs`; their held-out halves and the hand-written suite, on which
 * docs/benchmarks.md reports the calibration error, are never fitted.
 *
 * Above one softens: a topical claim ("Is this message spam?" from the words it shares with the
 * claim) was 0.65 sure at 0.57 accuracy, and two sentences compared as paraphrases were sure of
 * "no" far beyond their accuracy. Below one sharpens: a Score of valence was less sure than right.
 * Two texts compared are never sharpened (bench/lexical-calibrate.mjs says why): the answer
 * relation's fitted 0.670 is kept at one. Kinds without public development data (entailment,
 * urgency, hostility) keep their answers as they are.
 */
export const BUILTIN_CALIBRATION: EngineCalibration = {
  evidence: {
    'choice:answer-kind': { temperature: 1.065 },
    'choice:topical': { temperature: 1.111 },
    'noul:relation-answer': { temperature: 1 },
    'noul:relation-paraphrase': { temperature: 2.59 },
    'noul:topical': { temperature: 2.253 },
    'noul:valence': { temperature: 1.075 },
    'score:valence': { temperature: 0.872 },
  },
};
