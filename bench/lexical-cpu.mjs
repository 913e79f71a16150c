// CPU per question of the built-in engine's lexical evaluator: the development suite's 300
// questions, once to warm up (word vectors, memoised readings, JIT), then five rounds, user +
// system CPU of this process per question; prints the median and the fastest round. Give the path
// of another build's packages/engine/dist/index.js to compare two commits on the same machine (run
// them alternately: a shared machine's load moves these figures more than small changes do).
//
//   npx tsc -b && node bench/lexical-cpu.mjs [path/to/packages/engine/dist/index.js]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEV_SUITE, loadSets, measureSet } from './lexical-suite.mjs';

const entry = process.argv[2] ? pathToFileURL(path.resolve(process.argv[2])).href : '@arbiter/engine';
const { createBuiltinEngine } = await import(entry);
const engine = createBuiltinEngine();
const evaluate = async (request) => (await engine.evaluate(request)).answers;
const sets = loadSets(DEV_SUITE);
for (const set of sets) await measureSet(set, 'all', evaluate);
const rounds = [];
for (let round = 0; round < 5; round++) {
  const start = process.cpuUsage();
  let questions = 0;
  for (const set of sets) questions += (await measureSet(set, 'all', evaluate)).count;
  const cpu = process.cpuUsage(start);
  rounds.push((cpu.user + cpu.system) / 1000 / questions);
}
rounds.sort((a, b) => a - b);
console.log(
  `${entry}: CPU per question ${rounds[2].toFixed(3)} ms (median of 5 rounds), fastest ${rounds[0].toFixed(3)} ms`,
);
