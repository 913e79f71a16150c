// The llama-cpp engine on a model of real size: a random-weight GGUF with Qwen2-0.5B's dimensions in a
// llama graph (24 layers, width 896, 14 heads / 2 KV heads, FFN 4864, vocabulary 151,936, tied
// output), written at bench time by scripts/gguf/random-llama-gguf.mjs (not committed; about 0.5 GB
// in Q8_0). Measured in one run, on CPU:
//   1. load time (engine.load(): binding, model, context) and RSS before and after;
//   2. per request, p50 over iterations: one question vs six questions on one state, for two state
//      lengths. Each request has a state of its own (a number in front), so no request reuses the
//      previous one's cached state: six questions share one evaluated state inside the request only.
//      Aim: six ≤ 1.5 × one. With --lanes 6 the six question suffixes are decoded in one batch on
//      six sequences that each hold a copy of the state's KV cache.
// Run: npx tsx bench/llama-engine.mjs [--type q8_0|f16] [--iterations 5] [--threads 2] [--repeats 1,4] [--lanes 1] [--model FILE]
// (--repeats: state lengths, in copies of a 374-character support ticket)

import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLlamaCppEngine } from '../packages/engine/src/llama/llama-cpp-engine.ts';
import { writeRandomLlamaGguf } from '../scripts/gguf/random-llama-gguf.mjs';

const { values } = parseArgs({
  options: {
    type: { type: 'string', default: 'q8_0' },
    iterations: { type: 'string', default: '5' },
    threads: { type: 'string', default: '2' },
    model: { type: 'string' },
    repeats: { type: 'string', default: '1,4' },
    lanes: { type: 'string', default: '1' },
  },
});
const iterations = Number(values.iterations);
const modelPath = values.model ?? join(tmpdir(), `arbiter-bench-random-qwen2-0.5b-${values.type}.gguf`);

if (!existsSync(modelPath)) {
  const started = performance.now();
  const { parameters, vocab } = writeRandomLlamaGguf({
    out: modelPath,
    shape: 'qwen2-0.5b',
    type: values.type,
  });
  console.log(
    `wrote ${modelPath}: ${(parameters / 1e6).toFixed(0)}M parameters, vocabulary ${vocab}, ` +
      `${(statSync(modelPath).size / 2 ** 20).toFixed(0)} MiB, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const rssBefore = process.memoryUsage().rss;
const engine = createLlamaCppEngine({
  kind: 'llama-cpp',
  model: { path: modelPath },
  gpu: false,
  threads: Number(values.threads),
  lanes: Number(values.lanes),
  contextSize: 4096,
  layout: 'chatml',
  timeoutMs: 600_000,
});
const { loadMs } = await engine.load();
const rssLoaded = process.memoryUsage().rss;
console.log(
  `model ${values.type}, ${mib(statSync(modelPath).size)} on disk; ${values.lanes} lane(s), ${values.threads} thread(s)`,
);
console.log(`load: ${loadMs.toFixed(0)} ms; RSS ${mib(rssBefore)} before, ${mib(rssLoaded)} after load`);

const SIX = {
  urgent: { type: 'noul', instructions: 'Does this need action today?' },
  toxic: {
    type: 'noul',
    instructions: 'Is the message abusive?',
    criteria: { true: 'insults', false: 'civil' },
  },
  team: {
    type: 'choice',
    instructions: 'Which team should take it?',
    criteria: { billing: 'refunds and invoices', infrastructure: 'outages', support: null },
  },
  severity: {
    type: 'score',
    instructions: 'How severe is it?',
    criteria: ['none', 'minor', 'major', 'critical'],
  },
  sentiment: {
    type: 'score',
    instructions: 'How does the customer feel?',
    criteria: ['angry', 'neutral', 'happy'],
  },
  product: {
    type: 'choice',
    instructions: 'Which product?',
    criteria: { api: null, dashboard: null, mobile: null },
  },
};
const ONE = { urgent: SIX.urgent };

const TICKET =
  'Ticket from a paying customer: production is down, every API call has returned HTTP 500 since 09:00 and ' +
  'the status page still says all systems are operational. Our checkout depends on it; we are losing orders ' +
  'every minute. We already restarted our own services and rotated the key. Please escalate and tell us when ' +
  'it will be fixed, and whether this month will be refunded. ';

const p50 = (samples) => [...samples].sort((a, b) => a - b)[Math.floor((samples.length - 1) / 2)];

let counter = 0;
async function timeRequest(state, questions) {
  counter += 1;
  const started = performance.now();
  const { usage } = await engine.evaluate({ state: `Request ${counter}. ${state}`, questions });
  return { ms: performance.now() - started, tokens: usage.input_tokens };
}

// One warm-up request so the first measured one does not pay for first-use allocations.
await timeRequest(TICKET, SIX);

for (const repeats of values.repeats.split(',').map(Number)) {
  const state = TICKET.repeat(repeats);
  const one = [];
  const six = [];
  let oneTokens = 0;
  let sixTokens = 0;
  for (let i = 0; i < iterations; i++) {
    const a = await timeRequest(state, ONE);
    const b = await timeRequest(state, SIX);
    one.push(a.ms);
    six.push(b.ms);
    oneTokens = a.tokens;
    sixTokens = b.tokens;
  }
  console.log(
    `state of ${state.length} characters: one question p50 ${p50(one).toFixed(0)} ms (${oneTokens} tokens evaluated), ` +
      `six questions p50 ${p50(six).toFixed(0)} ms (${sixTokens} tokens); six / one = ${(p50(six) / p50(one)).toFixed(2)} ` +
      `in time (aim ≤ 1.5), ${(sixTokens / oneTokens).toFixed(2)} in tokens evaluated`,
  );
}
console.log(`RSS after the requests: ${mib(process.memoryUsage().rss)}`);
await engine.close();
