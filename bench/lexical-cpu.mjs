// CPU per question of the built-in engine's lexical evaluator: the development suite's 300
// questions, once to warm up (word vectors, memoised readings, JIT), then five rounds, user +
// system CPU of this process per question; prints the median and the fastest round. Give the path
// of another build's packages/engine/dist/index.js to compare two commits on the same machine (run
// them alternately: a shared machine's load moves these figures more than small changes do).
//
// `--answers FILE` also writes every answer, one JSON line each: the suite's questions, then the
// decision benches' six questions asked about each of the suite's states. Two builds whose files
// are byte for byte the same (`cmp`) gave the same answers: the proof a speed change needs.
//
//   npx tsc -b && node bench/lexical-cpu.mjs [path/to/packages/engine/dist/index.js] [--answers FILE]
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { SIX_QUESTION_REQUEST } from './decision-request.mjs';
import { DEV_SUITE, loadSets, measureSet, requestOf, splitOf } from './lexical-suite.mjs';

const { values, positionals } = parseArgs({
  options: { answers: { type: 'string' } },
  allowPositionals: true,
});
const entry = positionals[0] ? pathToFileURL(path.resolve(positionals[0])).href : '@arbiter/engine';
const { createBuiltinEngine } = await import(entry);
const engine = createBuiltinEngine();
const evaluate = async (request) => (await engine.evaluate(request)).answers;
const sets = loadSets(DEV_SUITE);
if (values.answers) {
  const lines = [];
  for (const set of sets) {
    for (const example of splitOf(set, 'all')) {
      const { request } = requestOf(set, example);
      lines.push(JSON.stringify(await evaluate(request)));
      const six = { state: request.state, questions: SIX_QUESTION_REQUEST.questions };
      lines.push(JSON.stringify(await evaluate(six)));
    }
  }
  fs.writeFileSync(values.answers, `${lines.join('\n')}\n`);
  console.log(`${lines.length} answers written to ${values.answers}`);
}
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
