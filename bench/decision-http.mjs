// Decision API throughput and latency over HTTP: the 6-question request to the built-in engine
// (`arbiter serve` code, auth on) against a bare Fastify route that parses the same JSON body and
// returns a constant body of the same size, each server in its own process, same load, same run.
//
//   npx tsc -b && node bench/decision-http.mjs [--connections 10] [--duration 5] [--rounds 3]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { SIX_QUESTION_REQUEST } from './decision-request.mjs';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '10' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    serve: { type: 'string' },
    'body-bytes': { type: 'string' },
  },
});

if (values.serve) await serve(values.serve);
else await measure();

async function serve(kind) {
  if (kind === 'arbiter') {
    const { startServer } = await import('@arbiter/server');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-bench-'));
    const server = await startServer({ port: 0, dataDir, harness: false, logger: false });
    process.stdout.write(`READY ${server.url} ${server.initialKey}\n`);
    process.on('SIGTERM', async () => {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  } else {
    const { default: Fastify } = await import('fastify');
    const body = JSON.stringify({ padding: 'x'.repeat(Number(values['body-bytes']) - 15) });
    const app = Fastify({ logger: false });
    app.post('/v1/decision', async (_request, reply) =>
      reply.type('application/json; charset=utf-8').send(body),
    );
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    process.stdout.write(`READY ${url} none\n`);
    process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
  }
}

function startChild(args) {
  const child = spawn(process.execPath, [import.meta.filename, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      const match = out.match(/READY (\S+) (\S+)\n/);
      if (match) resolve({ child, url: match[1], key: match[2] });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function load(url, headers, label) {
  const options = {
    url: `${url}/v1/decision`,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(SIX_QUESTION_REQUEST),
    connections: Number(values.connections),
  };
  await autocannon({ ...options, duration: 1 }); // warm-up: JIT, connection pools
  const result = await autocannon({ ...options, duration: Number(values.duration) });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    bytes: result.throughput.average,
  };
}

async function measure() {
  const arbiter = await startChild(['--serve', 'arbiter']);
  const probe = await fetch(`${arbiter.url}/v1/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${arbiter.key}` },
    body: JSON.stringify(SIX_QUESTION_REQUEST),
  });
  const responseBytes = Buffer.byteLength(await probe.text());
  if (probe.status !== 200) throw new Error(`arbiter answered ${probe.status}`);
  const bare = await startChild(['--serve', 'bare', '--body-bytes', String(responseBytes)]);

  // Alternating rounds, so a burst of load from elsewhere on the machine hits both sides alike.
  const decision = [];
  const baseline = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    decision.push(await load(arbiter.url, { authorization: `Bearer ${arbiter.key}` }, 'arbiter'));
    baseline.push(await load(bare.url, {}, 'bare'));
  }
  arbiter.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');

  const median = (rows, key) =>
    [...rows.map((row) => row[key])].sort((a, b) => a - b)[Math.floor(rows.length / 2)];
  const summary = (rows) => ({
    p50: median(rows, 'p50'),
    p99: median(rows, 'p99'),
    rps: median(rows, 'rps'),
  });
  const row = (name, r) =>
    `${name.padEnd(34)} p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms   ${r.rps.toFixed(0).padStart(6)} req/s`;
  const a = summary(decision);
  const b = summary(baseline);
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(2)}, ${values.connections} connections, ` +
      `${values.rounds} alternating rounds of ${values.duration} s (medians), response ${responseBytes} bytes`,
  );
  console.log(row('arbiter /v1/decision (6 questions)', a));
  console.log(row('bare Fastify, constant body', b));
  console.log(
    `p50 ratio ${(a.p50 / Math.max(b.p50, 1)).toFixed(2)}× (aim ≤ 1.5×); throughput ${(a.rps / b.rps).toFixed(2)} of bare (aim ≥ 3000 req/s)`,
  );
}
