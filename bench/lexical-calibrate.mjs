// Fits the built-in engine's calibration (packages/engine/src/builtin/lexical/builtin-calibration.ts):
// one temperature per question type by log-loss on the TUNE half of the development suite (or of
// the sets at --sets), with the same `calibrateSamples` that `arbiter calibrate` uses for model
// engines, and prints the calibration error before and after on the tune and held-out halves.
// Copy the printed calibration by hand.
//
//   npx tsc -b && node bench/lexical-calibrate.mjs [--sets DIR]
import { parseArgs } from 'node:util';
import { calibrateAnswer, calibrateSamples, createBuiltinEngine } from '@arbiter/engine';
import { DEV_SUITE, expectedCalibrationError, loadSets, measureSet } from './lexical-suite.mjs';

const { values } = parseArgs({ options: { sets: { type: 'string', default: DEV_SUITE } } });
const sets = loadSets(values.sets);
const raw = createBuiltinEngine({ calibration: {} });

async function measure(split, calibration) {
  const evaluate = async (request) => {
    const { answers } = await raw.evaluate(request);
    return Object.fromEntries(
      Object.entries(answers).map(([id, answer]) => [id, calibrateAnswer(answer, calibration)]),
    );
  };
  const rows = [];
  for (const set of sets) rows.push(await measureSet(set, split, evaluate));
  return rows;
}

const tune = await measure('tune', {});
const { calibration, byType } = calibrateSamples(tune.flatMap((row) => row.samples));
for (const entry of byType) {
  console.log(
    `${entry.type.padEnd(7)} n ${entry.count}  T ${entry.temperature.toFixed(3)}  tune ECE ${entry.before.ece.toFixed(3)} → ${entry.after.ece.toFixed(3)}  log-loss ${entry.before.logLoss.toFixed(3)} → ${entry.after.logLoss.toFixed(3)}`,
  );
}
for (const split of ['tune', 'held-out']) {
  const before = split === 'tune' ? tune : await measure(split, {});
  const after = await measure(split, calibration);
  console.log(`\n${split}: set, n, accuracy, ECE before → after, mean top p before → after`);
  after.forEach((row, index) => {
    const old = before[index];
    console.log(
      `  ${row.name.padEnd(20)}${String(row.count).padStart(4)}  ${row.accuracy.toFixed(3)}  ${old.ece.toFixed(3)} → ${row.ece.toFixed(3)}  ${old.meanTop.toFixed(3)} → ${row.meanTop.toFixed(3)}`,
    );
  });
  const pooled = (rows) => expectedCalibrationError(rows.flatMap((row) => row.tops)).toFixed(3);
  console.log(`  pooled ECE ${pooled(before)} → ${pooled(after)}`);
}
const rounded = Object.fromEntries(
  Object.entries(calibration).map(([type, entry]) => [
    type,
    { temperature: Number(entry.temperature.toFixed(3)) },
  ]),
);
console.log(`\n${JSON.stringify(rounded)}`);
