// Speed of the built-in tool-call analysis per call over the development set: median and p99
// of analyseToolCallSync (parse, judge, answer), against a baseline measured in the same run
// (JSON.parse + JSON.stringify of the same state, the least any gate must do with it).
// Targets: median ≤ 100 µs, p99 ≤ 1 ms. Run after `npx tsc -b packages/engine`:
//   node bench/gate-analysis-speed.mjs [path/to/cases.jsonl]
import { existsSync, readFileSync } from 'node:fs';
import { analyseToolCallSync, loadBashParser } from '@arbiter/tool-gate-analysis';

const file = process.argv[2] ?? '../shared/gate-dev/dcg-cases.jsonl';
if (!existsSync(file)) {
  console.error(`development set not found: ${file}`);
  process.exit(2);
}
const states = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line).state);
await loadBashParser();

const ROUNDS = 5;
// Wall time per call, and CPU time per call (process.cpuUsage), which excludes the time the
// process waits for a core: on a shared, loaded machine the wall-clock tail is the scheduler's.
function measure(work, clock) {
  const samples = [];
  for (const state of states) work(state); // warm-up
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const state of states) {
      if (clock === 'cpu') {
        const started = process.cpuUsage();
        work(state);
        const used = process.cpuUsage(started);
        samples.push(used.user + used.system);
      } else {
        const started = process.hrtime.bigint();
        work(state);
        samples.push(Number(process.hrtime.bigint() - started) / 1000);
      }
    }
  }
  samples.sort((a, b) => a - b);
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { n: samples.length, median: at(0.5), p99: at(0.99), max: samples[samples.length - 1] };
}

const roundTrip = (state) => JSON.parse(JSON.stringify(state));
const analyse = (state) => analyseToolCallSync(state);
const format = (value) => `${value.toFixed(1)} µs`;
const os = await import('node:os');
console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`);
for (const clock of ['wall', 'cpu']) {
  const baseline = measure(roundTrip, clock);
  const analysis = measure(analyse, clock);
  console.log(`\n${clock} time per call: ${analysis.n} calls (${states.length} states × ${ROUNDS} rounds)`);
  console.log(
    `  analysis  median ${format(analysis.median)}  p99 ${format(analysis.p99)}  max ${format(analysis.max)}`,
  );
  console.log(
    `  baseline  median ${format(baseline.median)}  p99 ${format(baseline.p99)}  (JSON round trip of the state)`,
  );
  console.log(
    `  ratio     median ${(analysis.median / baseline.median).toFixed(1)}×  p99 ${(analysis.p99 / baseline.p99).toFixed(1)}×`,
  );
  console.log(
    `  targets   median ≤ 100 µs: ${analysis.median <= 100 ? 'met' : 'MISSED'}; p99 ≤ 1000 µs: ${analysis.p99 <= 1000 ? 'met' : 'MISSED'}`,
  );
}
// Per-state cost without one-off pauses: each state's median wall time over 9 rounds, then the
// median and p99 across states (a state whose analysis is slow stays slow here; a GC pause or a
// descheduling during one round does not).
const perState = states.map(() => []);
for (let round = 0; round < 9; round += 1) {
  states.forEach((state, index) => {
    const started = process.hrtime.bigint();
    analyse(state);
    perState[index].push(Number(process.hrtime.bigint() - started) / 1000);
  });
}
const medians = perState.map((times) => times.sort((a, b) => a - b)[4]).sort((a, b) => a - b);
const atState = (q) => medians[Math.min(medians.length - 1, Math.floor(q * medians.length))];
console.log(
  `\nper-state median wall time (9 rounds): median ${format(atState(0.5))}  p99 ${format(atState(0.99))}  max ${format(medians[medians.length - 1])}`,
);
const memory = process.memoryUsage();
console.log(
  `rss ${(memory.rss / 1048576).toFixed(0)} MB, heap used ${(memory.heapUsed / 1048576).toFixed(0)} MB`,
);
