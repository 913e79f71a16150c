// Decision API throughput and latency over HTTP: the 6-question request to the built-in engine
// (`arbiter serve` code, auth on) against a bare Fastify route that parses the same JSON body and
// returns a constant body of the same size, each server in its own process, same load, same run.
// A third server, the floor, is Arbiter's own with an engine that returns answers computed at
// start: authentication, validation, routing and serialisation without any evaluation.
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
  if (kind === 'arbiter' || kind === 'floor') {
    const { startServer } = await import('@arbiter/server');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-bench-'));
    const server = await startServer({
      port: 0,
      dataDir,
      harness: false,
      logger: false,
      ...(kind === 'floor' ? await floorCatalog() : {}),
    });
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

/**
 * The floor: the same server, route, authentication, validation and serialisation, with an engine
 * that hands back answers computed once at start. What no engine can go below on this route.
 */
async function floorCatalog() {
  const { createBuiltinEngine } = await import('@arbiter/engine');
  const { z } = await import('zod');
  const { answers, usage } = await createBuiltinEngine().evaluate(SIX_QUESTION_REQUEST);
  const precomputed = {
    specificationVersion: 'v1',
    engineId: 'precomputed',
    evaluate: async () => ({ answers, usage }),
  };
  return {
    config: {
      catalog: {
        builtinModels: false,
        models: [{ name: 'arbiter-0.0.1', release_date: '2026-01-01', engine: { kind: 'precomputed' } }],
      },
    },
    engineKinds: {
      precomputed: { configSchema: z.looseObject({ kind: z.string() }), create: () => precomputed },
    },
  };
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
  const floor = await startChild(['--serve', 'floor']);
  const servers = {
    decision: { label: 'arbiter /v1/decision (6 questions)', ...arbiter, auth: true },
    floor: { label: 'same route, precomputed answers', ...floor, auth: true },
    baseline: { label: 'bare Fastify, constant body', ...bare, auth: false },
  };

  // Alternating rounds, so a burst of load from elsewhere on the machine hits every side alike.
  const loads = {};
  for (const connections of ['1', values.connections])
    loads[connections] = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const connections of Object.keys(loads)) {
      for (const [name, server] of Object.entries(servers)) {
        const headers = server.auth ? { authorization: `Bearer ${server.key}` } : {};
        loads[connections][name].push(
          await load(server.url, headers, name, Number(connections), server.child.pid),
        );
      }
    }
  }
  for (const server of Object.values(servers)) server.child.kill('SIGTERM');

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
    const figures = Object.fromEntries(Object.entries(rows).map(([name, list]) => [name, summary(list)]));
    const { decision: a, floor: f, baseline: b } = figures;
    result[connections] = { a, b };
    console.log(`${connections} connection${connections === '1' ? '' : 's'}:`);
    for (const [name, figure] of Object.entries(figures)) console.log(row(servers[name].label, figure));
    console.log(
      `  p50 ratio ${(a.p50 / b.p50).toFixed(2)}× (floor ${(f.p50 / b.p50).toFixed(2)}×), ` +
        `throughput ${(a.rps / b.rps).toFixed(2)} of bare (floor ${(f.rps / b.rps).toFixed(2)})`,
    );
  }
  const latency = result[1];
  const throughput = result[values.connections];
  console.log(
    `aims: p50 at one connection ${(latency.a.p50 / latency.b.p50).toFixed(2)}× bare (≤ 1.5×); ` +
      `${throughput.a.rps.toFixed(0)} req/s at ${values.connections} connections (≥ 3000)`,
  );
}
