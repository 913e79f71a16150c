// In-process verdict latency of the tool gate over the development set (aim: median ≤ 100 µs,
// p99 ≤ 1 ms). Baseline in the same run: the same DecisionClient round trip with the stub
// transport, i.e. the cost of everything except the analysis.
//   npx tsc -b && node bench/gate-speed.mjs [--rounds N]
import { createInProcessGate, readDevSet } from './gate-dev-set.mjs';

const roundsIndex = process.argv.indexOf('--rounds');
const rounds = roundsIndex === -1 ? 5 : Number(process.argv[roundsIndex + 1]);
const states = readDevSet().map((testCase) => testCase.state);

async function measure(gate) {
  for (const state of states) await gate.check(state); // warm-up: JIT, parser initialisation
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    for (const state of states) {
      const started = process.hrtime.bigint();
      await gate.check(state);
      samples.push(Number(process.hrtime.bigint() - started) / 1000);
    }
  }
  return summarise(samples);
}

/** The analysis alone, without client, validation, composition and record (what the engine costs). */
async function measureAnalysis() {
  const { analyseToolCallSync, loadBashParser } = await import('@arbiter/engine');
  await loadBashParser();
  for (const state of states) analyseToolCallSync(state);
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    for (const state of states) {
      const started = process.hrtime.bigint();
      analyseToolCallSync(state);
      samples.push(Number(process.hrtime.bigint() - started) / 1000);
    }
  }
  return summarise(samples);
}

function summarise(samples) {
  samples.sort((a, b) => a - b);
  const at = (quantile) => samples[Math.min(samples.length - 1, Math.floor(quantile * samples.length))];
  return { count: samples.length, median: at(0.5), p99: at(0.99), max: samples.at(-1) };
}

const { DecisionClient, createStubTransport } = await import('@arbiter/decision');
const { createToolGate } = await import('@arbiter/tool-gate');
const baseline = await measure(
  createToolGate({ client: new DecisionClient({ transport: createStubTransport(), redact: false }) }),
);
const gate = await measure(await createInProcessGate());
const analysis = await measureAnalysis();

const format = (figures) =>
  `median ${figures.median.toFixed(1)} µs, p99 ${figures.p99.toFixed(1)} µs, max ${figures.max.toFixed(1)} µs over ${figures.count} verdicts`;
console.log(`baseline (stub transport, no analysis): ${format(baseline)}`);
console.log(`arbiter gate (built-in analysers):      ${format(gate)}`);
console.log(`analysis alone (analyseToolCallSync):   ${format(analysis)}`);
console.log(
  `ratio to baseline: median ×${(gate.median / baseline.median).toFixed(2)}, p99 ×${(gate.p99 / baseline.p99).toFixed(2)}`,
);
console.log(`aim: median ≤ 100 µs, p99 ≤ 1000 µs`);
