// Overhead of the OpenAI-compatible LLM engine over a direct call, against a fake model server on
// loopback with a fixed upstream delay, all measured in the same run:
//   1. engine.evaluate (1 Noul question) vs a direct fetch of the same chat completion: p50 overhead;
//   2. a 6-question request vs a 1-question request: p50 ratio (questions run concurrently).
// Run: npx tsx bench/llm-engine.mjs [--delay-ms 20] [--iterations 200]

import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { labelOutcomes } from '../packages/engine/src/llm/labelled-outcome.ts';
import { createOpenAICompatibleEngine } from '../packages/engine/src/llm/openai-compatible-engine.ts';
import { questionMessages, sharedPrefix } from '../packages/engine/src/llm/prompt-layout.ts';

const { values } = parseArgs({
  options: {
    'delay-ms': { type: 'string', default: '20' },
    iterations: { type: 'string', default: '200' },
    serve: { type: 'boolean', default: false },
  },
});
const delayMs = Number(values['delay-ms']);
const iterations = Number(values.iterations);

const top = [
  { token: 'yes', logprob: Math.log(0.7) },
  { token: 'Yes', logprob: Math.log(0.1) },
  { token: 'no', logprob: Math.log(0.15) },
  ...Array.from({ length: 17 }, (_, i) => ({ token: `t${i}`, logprob: Math.log(0.05 / 17) })),
];
const completionBody = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_763_800_000,
  model: 'bench-model',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'yes' },
      logprobs: { content: [{ ...top[0], bytes: [121, 101, 115], top_logprobs: top }] },
      finish_reason: 'length',
    },
  ],
  usage: { prompt_tokens: 180, completion_tokens: 1, total_tokens: 181 },
});

// The fake model server runs in its own process, as a real model server would: its request handling
// must not compete with the engine for this process's event loop.
if (process.argv.includes('--serve')) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(completionBody);
      }, delayMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  process.send?.({ port: server.address().port });
  process.on('disconnect', () => process.exit(0));
} else {
  await measure();
}

async function measure() {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', '--delay-ms', String(delayMs)], {
    execArgv: ['--import', 'tsx'],
  });
  const [{ port }] = await once(child, 'message');
  const baseURL = `http://127.0.0.1:${port}/v1`;

  const engine = createOpenAICompatibleEngine({
    kind: 'openai-compatible',
    baseURL,
    model: 'bench-model',
    concurrency: 8,
  });
  const state = {
    ticket: 'Payouts have failed for three days; customers are furious.',
    account: { plan: 'enterprise', region: 'eu-west-1', open_incidents: 2 },
  };
  const question = (i) => ({
    type: 'noul',
    instructions: `Does the ticket need action today? (variant ${i})`,
  });
  const oneQuestion = { q0: question(0) };
  const sixQuestions = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`q${i}`, question(i)]));

  // The direct call sends byte for byte what the engine sends for one question, prepared once
  // outside the timing, so the difference is the engine's own work.
  const directBody = JSON.stringify({
    model: 'bench-model',
    temperature: 0,
    messages: questionMessages(sharedPrefix(state), question(0), labelOutcomes(question(0)), 'label'),
    max_tokens: 1,
    logprobs: true,
    top_logprobs: 20,
  });
  // The same call through undici's request on a keep-alive agent: the transport the engine uses by
  // default, so engine-minus-this is the engine's own work on top of its HTTP client.
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  async function directUndici() {
    const response = await request(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: directBody,
      dispatcher: agent,
    });
    JSON.parse(await response.body.text());
  }
  async function direct() {
    const response = await fetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: directBody,
    });
    await response.json();
  }

  const percentile = (samples, p) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  };
  // Wall time, plus this process's CPU time for the call: the CPU figure does not depend on how busy
  // the rest of the machine is, so it isolates the client-side work (engine + HTTP client).
  const cpu = { direct: [], direct6: [], undici: [], engine1: [], engine6: [] };
  async function time(name, task) {
    const cpuBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    await task();
    const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    const used = process.cpuUsage(cpuBefore);
    cpu[name].push((used.user + used.system) / 1000);
    return elapsed;
  }

  const runs = {
    direct: () => direct(),
    direct6: () => Promise.all(Array.from({ length: 6 }, () => direct())),
    undici: () => directUndici(),
    engine1: () => engine.evaluate({ state, questions: oneQuestion }),
    engine6: () => engine.evaluate({ state, questions: sixQuestions }),
  };
  for (const run of Object.values(runs)) for (let i = 0; i < 20; i += 1) await run(); // warm up JIT and sockets

  // Interleaved, so drift in the machine's load affects every variant alike.
  const samples = { direct: [], direct6: [], undici: [], engine1: [], engine6: [] };
  for (let i = 0; i < iterations; i += 1) {
    for (const [name, run] of Object.entries(runs)) samples[name].push(await time(name, run));
  }

  const p50 = Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [name, percentile(values, 50)]),
  );
  const p90 = Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [name, percentile(values, 90)]),
  );
  const overhead = p50.engine1 - p50.direct;
  const ratio = p50.engine6 / p50.engine1;
  const transportRatio = p50.direct6 / p50.direct;
  const fmt = (ms) => `${ms.toFixed(2)} ms`;
  console.log(
    `LLM engine bench: upstream delay ${delayMs} ms, ${iterations} interleaved iterations, Node ${process.version}`,
  );
  console.log(`  direct fetch          p50 ${fmt(p50.direct)}  p90 ${fmt(p90.direct)}`);
  console.log(`  direct fetch ×6 concurrent p50 ${fmt(p50.direct6)}  p90 ${fmt(p90.direct6)}`);
  console.log(`  direct undici request p50 ${fmt(p50.undici)}  p90 ${fmt(p90.undici)}`);
  console.log(`  engine, 1 question    p50 ${fmt(p50.engine1)}  p90 ${fmt(p90.engine1)}`);
  console.log(`  engine, 6 questions   p50 ${fmt(p50.engine6)}  p90 ${fmt(p90.engine6)}`);
  const cpuMean = (name) => cpu[name].reduce((sum, value) => sum + value, 0) / cpu[name].length;
  console.log(
    `  client CPU per call (mean): direct ${fmt(cpuMean('direct'))}, direct ×6 ${fmt(cpuMean('direct6'))}, ` +
      `undici ${fmt(cpuMean('undici'))}, ` +
      `engine 1 q ${fmt(cpuMean('engine1'))}, engine 6 q ${fmt(cpuMean('engine6'))}`,
  );
  console.log(`  engine overhead at p50: ${fmt(overhead)} (aim ≤ 2 ms) ${overhead <= 2 ? 'OK' : 'MISSED'}`);
  console.log(
    `  engine over a direct undici request at p50: ${fmt(p50.engine1 - p50.undici)}; CPU ${fmt(cpuMean('engine1') - cpuMean('undici'))}`,
  );
  console.log(
    `  6-question / 1-question at p50: ${ratio.toFixed(3)}× (aim ≤ 1.3×) ${ratio <= 1.3 ? 'OK' : 'MISSED'}`,
  );

  child.disconnect();
}
