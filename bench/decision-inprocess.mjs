// The in-process decision client: the 6-question request through DecisionClient (redaction,
// validation, budget, answer checks) and the built-in engine, against the bare engine call in the
// same run.
//
//   npx tsc -b && node bench/decision-inprocess.mjs [--iterations 20000]
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createInProcessTransport, DecisionClient } from '@arbiter/decision';
import { createBuiltinEngine } from '@arbiter/engine';
import { SIX_QUESTION_REQUEST } from './decision-request.mjs';

const { values } = parseArgs({ options: { iterations: { type: 'string', default: '20000' } } });
const iterations = Number(values.iterations);

const engine = createBuiltinEngine();
const client = new DecisionClient({
  transport: createInProcessTransport({ engine, model: 'arbiter-1.0.0' }),
});
const { state, questions } = SIX_QUESTION_REQUEST;

async function sample(label, call) {
  for (let i = 0; i < Math.min(5000, iterations); i++) await call(); // warm-up
  const micros = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await call();
    micros[i] = (performance.now() - start) * 1000;
  }
  micros.sort();
  const at = (q) => micros[Math.min(iterations - 1, Math.floor(q * iterations))];
  return { label, median: at(0.5), p99: at(0.99) };
}

const check = await client.decide({ state, questions });
if (check.skipped) throw new Error(`the client skipped: ${check.message}`);

const bare = await sample('engine.evaluate (bare)', () => engine.evaluate({ state, questions }));
const full = await sample('DecisionClient in-process', () => client.decide({ state, questions }));
console.log(`node ${process.version}, ${os.cpus().length} CPUs, ${iterations} calls each`);
for (const r of [full, bare]) {
  console.log(
    `${r.label.padEnd(28)} median ${r.median.toFixed(1).padStart(6)} µs   p99 ${r.p99.toFixed(1).padStart(6)} µs`,
  );
}
console.log(
  `client/engine median ratio ${(full.median / bare.median).toFixed(2)}×; aim: client median ≤ 100 µs`,
);
