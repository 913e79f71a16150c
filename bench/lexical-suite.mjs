// The labelled sets the built-in engine is measured on: each a JSON file with one question (a
// Decision API question of type choice, noul or score), its examples and their gold labels.
//
//   { "name", "task", "state": "text" | "pair", "pair"?: [key, key], "question": {…},
//     "examples": [[text, gold] | [premise, hypothesis, gold]] }
//
// A pair's two texts are sent as the members `premise` and `hypothesis`, or as those `pair` names
// (`sentence1`/`sentence2`, `question`/`answer`), the way a client of that task would send them.
//
// Each example goes to the tune or the held-out half by a hash of its text (FNV-1a), not by its
// position: the sets list their labels in cycles, and a split by position would give each half only
// some of the labels.
import fs from 'node:fs';
import path from 'node:path';

export const DEV_SUITE = path.resolve(import.meta.dirname, 'lexical-dev');

export function loadSets(directory) {
  return fs
    .readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(directory, name), 'utf8')));
}

function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function splitOf(set, split) {
  if (split === 'all') return set.examples;
  return set.examples.filter((example) => (fnv1a(JSON.stringify(example)) % 2 === 0) === (split === 'tune'));
}

/** The Decision API request of one example, and its gold label. */
export function requestOf(set, example) {
  const pair = set.state === 'pair';
  const [first, second] = set.pair ?? ['premise', 'hypothesis'];
  const state = pair ? { [first]: example[0], [second]: example[1] } : example[0];
  return { request: { state, questions: { q: set.question } }, gold: example[pair ? 2 : 1] };
}

/** The label an answer predicts and the probability it gives that label. */
export function predictionOf(answer) {
  if (answer.type === 'noul')
    return { label: answer.noul > 0.5, top: Math.max(answer.noul, 1 - answer.noul) };
  const entries = Object.entries(answer.probabilities);
  const [label, top] = entries.reduce((best, entry) => (entry[1] > best[1] ? entry : best));
  return { label: answer.type === 'score' ? Number(label) : label, top };
}

export function goldProbability(answer, gold) {
  if (answer.type === 'noul') return gold ? answer.noul : 1 - answer.noul;
  return answer.probabilities[String(gold)] ?? 0;
}

export function majorityAccuracy(examples, goldOf) {
  const counts = new Map();
  for (const example of examples) counts.set(goldOf(example), (counts.get(goldOf(example)) ?? 0) + 1);
  return Math.max(...counts.values()) / examples.length;
}

/** The answer's distribution as a list, and the index of the gold outcome (Noul: [true, false]). */
export function sampleOf(set, answer, gold) {
  if (answer.type === 'noul')
    return { probabilities: [answer.noul, 1 - answer.noul], expected: gold ? 0 : 1 };
  const keys =
    set.question.type === 'choice'
      ? Object.keys(set.question.criteria)
      : set.question.criteria.map((_, index) => String(index));
  return {
    probabilities: keys.map((key) => answer.probabilities[key] ?? 0),
    expected: keys.indexOf(String(gold)),
  };
}

/** Expected calibration error of top-outcome confidences, ten equal-width bins. */
export function expectedCalibrationError(tops, bins = 10) {
  const sums = Array.from({ length: bins }, () => ({ n: 0, confidence: 0, correct: 0 }));
  for (const { top, right } of tops) {
    const bin = sums[Math.min(bins - 1, Math.floor(top * bins))];
    bin.n += 1;
    bin.confidence += top;
    bin.correct += right ? 1 : 0;
  }
  return sums.reduce(
    (sum, bin) => (bin.n === 0 ? sum : sum + Math.abs(bin.correct - bin.confidence) / tops.length),
    0,
  );
}

/**
 * Accuracy, majority baseline, mean top probability, log-loss and calibration error of `evaluate`
 * on a set's split, with each answer's top probability and whether it was right (`tops`, for
 * pooled calibration figures) and its distribution (`samples`, for fitting a calibration).
 */
export async function measureSet(set, split, evaluate) {
  const examples = splitOf(set, split);
  let correct = 0;
  let topSum = 0;
  let logLoss = 0;
  const golds = [];
  const tops = [];
  const samples = [];
  for (const example of examples) {
    const { request, gold } = requestOf(set, example);
    golds.push(gold);
    const answer = (await evaluate(request)).q;
    const prediction = predictionOf(answer);
    if (prediction.label === gold) correct++;
    tops.push({ top: prediction.top, right: prediction.label === gold });
    samples.push({ type: set.question.type, ...sampleOf(set, answer, gold) });
    topSum += prediction.top;
    logLoss -= Math.log(Math.max(1e-6, goldProbability(answer, gold)));
  }
  return {
    name: set.name,
    count: examples.length,
    accuracy: correct / examples.length,
    majority: majorityAccuracy(golds, (gold) => String(gold)),
    meanTop: topSum / examples.length,
    logLoss: logLoss / examples.length,
    ece: expectedCalibrationError(tops),
    tops,
    samples,
  };
}
