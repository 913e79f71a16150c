// In-process verdict latency of the tool gate over the development set (aim: median ≤ 100 µs,
// p99 ≤ 1 ms). Baseline in the same run: the same DecisionClient round trip with the stub
// transport, i.e. the cost of everything except the analysis.
//
// An embedded gate lives as long as its agent, so the figures are for a warmed process: the
// first `--warmup` passes over the set (default 4) are not measured. In them V8 tiers the bash
// grammar's WebAssembly up on background threads, which on 2 cores stalls calls for milliseconds;
// the first pass alone is reported too, so the cold cost stays visible.
//   npx tsc -b && node bench/gate-speed.mjs [--rounds N] [--warmup N]
import { createInProcessGate, readDevSet } from './gate-dev-set.mjs';

const option = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const rounds = option('--rounds', 5);
const warmup = option('--warmup', 4);
const states = readDevSet().map((testCase) => testCase.state);
const firstPasses = {};

async function measure(gate, label) {
  const first = [];
  for (const state of states) {
    const started = process.hrtime.bigint();
    await gate.check(state);
    first.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  firstPasses[label] = summarise(first);
  for (let pass = 1; pass < warmup; pass++) for (const state of states) await gate.check(state);
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
  const { analyseToolCallSync, loadBashParser } = await import('@arbiter/tool-gate-analysis');
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
  'baseline',
);
const gate = await measure(await createInProcessGate(), 'gate');
const analysis = await measureAnalysis();

const format = (figures) =>
  `median ${figures.median.toFixed(1)} µs, p99 ${figures.p99.toFixed(1)} µs, max ${figures.max.toFixed(1)} µs over ${figures.count} verdicts`;
console.log(`baseline (stub transport, no analysis): ${format(baseline)}`);
console.log(`arbiter gate (built-in analysers):      ${format(gate)}`);
console.log(`analysis alone (analyseToolCallSync):   ${format(analysis)}`);
console.log(
  `ratio to baseline: median ×${(gate.median / baseline.median).toFixed(2)}, p99 ×${(gate.p99 / baseline.p99).toFixed(2)}`,
);
console.log(`first pass, cold process:                ${format(firstPasses.gate)}`);
console.log(
  `aim: median ≤ 100 µs, p99 ≤ 1000 µs (warmed: ${warmup} passes of ${states.length} states first)`,
);
