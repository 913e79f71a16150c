// Latency, load time and memory of the `nli` engine on random-weight cross-encoders of a real
// shape (DistilBERT-like: 6 layers, hidden 768, 12 heads, FFN 3072, 30,522-piece vocabulary, about
// 66M parameters), written at bench time by scripts/nli-fixture (not committed) in two forms:
//   - int8: every weight matrix int8 through DynamicQuantizeLinear + MatMulInteger (what
//     onnxruntime's dynamic quantisation produces); embeddings stay float, as they do there;
//   - fp32: the same graph in float, the baseline of the same run.
// Per form: load time (engine ready to answer), p50/p90 of a 1-question Noul request and of a
// 6-option Choice request on a ~90-token state (wall time and the process's CPU time per call),
// RSS after load and after the runs. Random weights
// say nothing about accuracy; the shapes and the work per question are those of a real model.
// Run: npx tsx bench/nli-engine.mjs [--iterations 40] [--threads N] [--forms int8,fp32]
// (--threads defaults to the engine's default: the machine's cores, at most 4)

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { nliEngineConfigSchema } from '../packages/engine/src/nli/nli-engine-config.ts';
import { loadNliEngine } from '../packages/engine/src/nli/nli-engine-kind.ts';
import { writeCrossEncoder } from '../scripts/nli-fixture/write-cross-encoder.mjs';

const { values } = parseArgs({
  options: {
    iterations: { type: 'string', default: '40' },
    threads: { type: 'string' },
    forms: { type: 'string', default: 'int8,fp32' },
  },
});
const iterations = Number(values.iterations);
const threads = values.threads === undefined ? undefined : Number(values.threads);

const STATE =
  'Ticket 4821 from a customer on the enterprise plan: since the deploy this morning every call to ' +
  'the payments API returns a 500 error, checkout is down for all users, and the status page still ' +
  'says everything is fine. They ask whether we can roll back the release or give them a workaround, ' +
  'because their sales team cannot take any card payment until it is fixed. Please help quickly.';
const NOUL = { urgent: { type: 'noul', instructions: 'This needs action today.' } };
const CHOICE = {
  team: {
    type: 'choice',
    instructions: 'Which team should handle this?',
    criteria: {
      billing: null,
      payments: null,
      infrastructure: null,
      sales: null,
      security: null,
      support: null,
    },
  },
};

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

async function measure(engine, questions) {
  for (let i = 0; i < 3; i++) await engine.evaluate({ state: STATE, questions });
  const times = [];
  const cpu = [];
  let tokens = 0;
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const result = await engine.evaluate({ state: STATE, questions });
    const used = process.cpuUsage(cpuStart);
    times.push(performance.now() - start);
    // The process's CPU time (onnxruntime's threads included): what the call costs, whatever else
    // the machine is running.
    cpu.push((used.user + used.system) / 1000);
    tokens = result.usage.input_tokens;
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p90: percentile(times, 0.9), cpu50: percentile(cpu, 0.5), tokens };
}

// The texts' words are whole pieces of the vocabulary, as in a real English WordPiece vocabulary,
// so the sequences are as long as a real tokenizer makes them.
const words = [...new Set(`${STATE} ${JSON.stringify([NOUL, CHOICE])}`.toLowerCase().match(/[a-z]+/g))];
const shape = {
  words,
  vocabSize: 30_522,
  hidden: 768,
  layers: 6,
  heads: 12,
  intermediate: 3072,
  maxPositions: 512,
  seed: 3,
};
const results = {};
for (const form of values.forms.split(',')) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `arbiter-nli-bench-${form}-`));
  try {
    const { parameters } = writeCrossEncoder(dir, { ...shape, int8: form === 'int8' });
    const onnxBytes = statSync(path.join(dir, 'onnx', 'model.onnx')).size;
    const rssBefore = process.memoryUsage().rss;
    const loadStart = performance.now();
    const config = nliEngineConfigSchema.parse({ kind: 'nli', path: dir, threads });
    const engine = await loadNliEngine(config);
    const loadMs = performance.now() - loadStart;
    const rssLoaded = process.memoryUsage().rss;
    const noul = await measure(engine, NOUL);
    const choice = await measure(engine, CHOICE);
    const rssAfter = process.memoryUsage().rss;
    results[form] = { noul, choice };
    console.log(
      `${form}: ${(parameters / 1e6).toFixed(1)}M parameters, model.onnx ${mib(onnxBytes)}, threads ${config.threads}; ` +
        `load ${loadMs.toFixed(0)} ms; RSS +${mib(rssLoaded - rssBefore)} at load, ${mib(rssAfter)} total after the runs`,
    );
    console.log(
      `  Noul (1 question, ${noul.tokens} tokens): p50 ${noul.p50.toFixed(1)} ms, p90 ${noul.p90.toFixed(1)} ms, CPU p50 ${noul.cpu50.toFixed(1)} ms (aim p50 ≤ 25 ms)`,
    );
    console.log(
      `  Choice (6 options, ${choice.tokens} tokens): p50 ${choice.p50.toFixed(1)} ms, p90 ${choice.p90.toFixed(1)} ms, CPU p50 ${choice.cpu50.toFixed(1)} ms (aim p50 ≤ 80 ms)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
if (results.int8 && results.fp32) {
  console.log(
    `int8 / fp32 at p50: Noul ${(results.int8.noul.p50 / results.fp32.noul.p50).toFixed(2)}×, Choice ${(results.int8.choice.p50 / results.fp32.choice.p50).toFixed(2)}×`,
  );
}
