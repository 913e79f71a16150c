// Accuracy of the built-in engine against always answering the majority class, per labelled set,
// on the tune half, the held-out half and all of the development suite (or of sets at --sets),
// with the expected calibration error (ECE, ten bins of top probability) per set and pooled over
// every answer of the split, a reliability table of the pooled answers, and the CPU time per
// question (user + system, after the word vectors are loaded).
//
//   npx tsc -b && node bench/lexical-accuracy.mjs [--sets DIR] [--split held-out|tune|all] [--uncalibrated]
//
// --uncalibrated measures the engine without its shipped calibration (`calibration: {}`), the
// "before" of docs/benchmarks.md's calibration tables.
// --sets reads public labelled data converted to the suite's format (see bench/lexical-dev/README.md
// for where to get each set and its licence); such data is measured locally, never committed.
import { parseArgs } from 'node:util';
import { createBuiltinEngine } from '@arbiter/engine';
import { DEV_SUITE, expectedCalibrationError, loadSets, measureSet } from './lexical-suite.mjs';

const { values } = parseArgs({
  options: {
    sets: { type: 'string', default: DEV_SUITE },
    split: { type: 'string' },
    uncalibrated: { type: 'boolean', default: false },
  },
});
const engine = createBuiltinEngine(values.uncalibrated ? { calibration: {} } : {});
const evaluate = async (request) => (await engine.evaluate(request)).answers;
const splits = values.split ? [values.split] : ['tune', 'held-out', 'all'];
// Load the word vectors before timing: the CPU figure is per question, not per process start.
await evaluate({ state: 'warm up', questions: { q: { type: 'noul', instructions: 'Is this warm?' } } });

for (const split of splits) {
  console.log(`\n${split} (${values.sets})`);
  console.log('set                   n    accuracy  majority  mean top p  log-loss  ECE');
  const rows = [];
  const cpuStart = process.cpuUsage();
  for (const set of loadSets(values.sets)) rows.push(await measureSet(set, split, evaluate));
  const cpu = process.cpuUsage(cpuStart);
  for (const r of rows) {
    const flag = r.accuracy > r.majority ? ' ' : '!';
    console.log(
      `${r.name.padEnd(20)}${String(r.count).padStart(4)}    ${r.accuracy.toFixed(3)}${flag}    ${r.majority.toFixed(3)}     ${r.meanTop.toFixed(3)}     ${r.logLoss.toFixed(3)}     ${r.ece.toFixed(3)}`,
    );
  }
  const mean = (key) => rows.reduce((sum, r) => sum + r[key], 0) / rows.length;
  const beaten = rows.filter((r) => r.accuracy > r.majority).length;
  console.log(
    `${'mean'.padEnd(24)}    ${mean('accuracy').toFixed(3)}     ${mean('majority').toFixed(3)}     ${mean('meanTop').toFixed(3)}     ${mean('logLoss').toFixed(3)}     ${mean('ece').toFixed(3)}   above majority on ${beaten}/${rows.length}`,
  );
  const tops = rows.flatMap((r) => r.tops);
  console.log(`pooled ECE over ${tops.length} answers: ${expectedCalibrationError(tops).toFixed(3)}`);
  console.log(`CPU per question: ${((cpu.user + cpu.system) / 1000 / tops.length).toFixed(3)} ms`);
  console.log('reliability (pooled): confidence bin, answers, mean confidence, accuracy');
  for (let bin = 0; bin < 10; bin++) {
    const inBin = tops.filter((t) => Math.min(9, Math.floor(t.top * 10)) === bin);
    if (inBin.length === 0) continue;
    const confidence = inBin.reduce((sum, t) => sum + t.top, 0) / inBin.length;
    const accuracy = inBin.filter((t) => t.right).length / inBin.length;
    console.log(
      `  ${(bin / 10).toFixed(1)}–${((bin + 1) / 10).toFixed(1)}  ${String(inBin.length).padStart(4)}  ${confidence.toFixed(3)}  ${accuracy.toFixed(3)}`,
    );
  }
}
