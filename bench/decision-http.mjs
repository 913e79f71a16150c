// Decision API throughput and latency over HTTP: the 6-question request to the built-in engine
// (`arbiter serve` code, auth on) against a bare Fastify route that parses the same JSON body and
// returns a constant body of the same size, each server in its own process, same load, same run.
//
// Two loads per side: one connection (latency: each request alone, no queueing in front of it) and
// `--connections` (throughput, where latency is mostly time spent queued behind other requests).
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

/** CPU time (user + system) a process has used, in ms, from /proc; null where there is none. */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

async function load(url, headers, label, connections, pid) {
  const options = {
    url: `${url}/v1/decision`,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(SIX_QUESTION_REQUEST),
    connections,
  };
  await autocannon({ ...options, duration: 1 }); // warm-up: JIT, connection pools
  // autocannon's own histogram keeps whole milliseconds, too coarse for sub-millisecond answers:
  // collect every response time (fractional ms, from hrtime) and take the percentiles here.
  const latencies = [];
  const cpuBefore = cpuMs(pid);
  const run = autocannon({ ...options, duration: Number(values.duration) });
  run.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  const result = await run;
  const cpuAfter = cpuMs(pid);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  latencies.sort((a, b) => a - b);
  const percentile = (p) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return {
    p50: percentile(50),
    p99: percentile(99),
    rps: result.requests.average,
    bytes: result.throughput.average,
    // The server's own CPU per answer: steadier than latency on a shared machine, and what
    // throughput is made of once the server is saturated.
    cpuUs:
      cpuBefore === null || cpuAfter === null
        ? null
        : ((cpuAfter - cpuBefore) * 1000) / result.requests.total,
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
  const loads = { 1: { decision: [], baseline: [] }, [values.connections]: { decision: [], baseline: [] } };
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const connections of Object.keys(loads)) {
      const n = Number(connections);
      loads[connections].decision.push(
        await load(arbiter.url, { authorization: `Bearer ${arbiter.key}` }, 'arbiter', n, arbiter.child.pid),
      );
      loads[connections].baseline.push(await load(bare.url, {}, 'bare', n, bare.child.pid));
    }
  }
  arbiter.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');

  const median = (rows, key) =>
    [...rows.map((row) => row[key])].sort((a, b) => a - b)[Math.floor(rows.length / 2)];
  const summary = (rows) => ({
    p50: median(rows, 'p50'),
    p99: median(rows, 'p99'),
    rps: median(rows, 'rps'),
    cpuUs: rows.some((row) => row.cpuUs === null) ? null : median(rows, 'cpuUs'),
  });
  const row = (name, r) =>
    `  ${name.padEnd(34)} p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   ${r.rps.toFixed(0).padStart(6)} req/s` +
    (r.cpuUs === null ? '' : `   server CPU ${r.cpuUs.toFixed(0).padStart(4)} µs/request`);
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(2)}, ` +
      `${values.rounds} alternating rounds of ${values.duration} s per load (medians), response ${responseBytes} bytes`,
  );
  const result = {};
  for (const [connections, rows] of Object.entries(loads)) {
    const a = summary(rows.decision);
    const b = summary(rows.baseline);
    result[connections] = { a, b };
    console.log(`${connections} connection${connections === '1' ? '' : 's'}:`);
    console.log(row('arbiter /v1/decision (6 questions)', a));
    console.log(row('bare Fastify, constant body', b));
    console.log(
      `  p50 ratio ${(a.p50 / b.p50).toFixed(2)}×, throughput ${(a.rps / b.rps).toFixed(2)} of bare`,
    );
  }
  const latency = result[1];
  const throughput = result[values.connections];
  console.log(
    `aims: p50 at one connection ${(latency.a.p50 / latency.b.p50).toFixed(2)}× bare (≤ 1.5×); ` +
      `${throughput.a.rps.toFixed(0)} req/s at ${values.connections} connections (≥ 3000)`,
  );
}
