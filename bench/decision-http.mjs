// Decision API throughput and latency over HTTP: the 6-question request to the built-in engine
// (`arbiter serve` code, auth on) against a bare Fastify route that parses the same JSON body and
// returns a constant body of the same size, each server in its own process, same load, same run.
// A third server, the floor, is Arbiter's own with an engine that returns answers computed at
// start: authentication, validation, routing and serialisation without any evaluation.
//
// Two loads per side: one connection (latency: each request alone, no queueing in front of it) and
// `--connections` (throughput, where latency is mostly time spent queued behind other requests).
//
// It ends with the aims of issue 30, each with its ratio to the bare route measured in the same run
// and PASS or FAIL, and the built-in engine's CPU per question (`npm run bench` builds first and
// runs this), so a slow-down shows in the commit that makes it. It exits 0 whether or not the aims
// are met (a missed aim is a finding, not a crash; `--strict` exits 1 on a miss). A script to run
// by hand, not a timed test in CI.
//
// `--compare DIR` adds the arbiter and floor servers of another checkout (built, with this script
// in its bench/) to the same alternating rounds, and prints its aims too: a before and an after
// from one run, under one load. The exit code follows this checkout's aims only.
//
// `--profile floor|arbiter|bare` instead loads that one server at one connection with V8's CPU
// profiler on (started after the warm-up, so start-up is left out) and prints where its time goes,
// per request; `--profile-out` keeps the .cpuprofile for a flame-graph viewer.
//
//   npx tsc -b && node bench/decision-http.mjs [--connections 10] [--duration 5] [--rounds 3] [--compare DIR]
//   npx tsc -b && node bench/decision-http.mjs --profile floor [--duration 10] [--profile-out f]
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
    profile: { type: 'string' },
    'profile-out': { type: 'string' },
    compare: { type: 'string' },
    strict: { type: 'boolean', default: false },
  },
});

/** The aims of issue 30, each against the bare route measured in the same run. */
const AIMS = {
  floorLatency: 1.3,
  decisionLatency: 2,
  throughput: 5000,
};

if (values.serve) await serve(values.serve);
else if (values.profile) await profile(values.profile);
else {
  const met = await measure();
  process.exitCode = met || !values.strict ? 0 : 1;
}

async function serve(kind) {
  const stopProfile = process.env.BENCH_CPU_PROFILE
    ? await profileOnSignal(process.env.BENCH_CPU_PROFILE)
    : async () => {};
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
      await stopProfile();
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
    process.on('SIGTERM', async () => {
      await stopProfile();
      await app.close();
      process.exit(0);
    });
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
  // The answers to the questions asked, and only those, as an engine must give them.
  const precomputed = {
    specificationVersion: 'v1',
    engineId: 'precomputed',
    evaluate: async ({ questions }) => ({
      answers: Object.fromEntries(Object.keys(questions).map((id) => [id, answers[id]])),
      usage,
    }),
  };
  return {
    config: {
      catalog: {
        builtinModels: false,
        models: [{ name: 'arbiter-0.0.1', release_date: '2026-01-01', engine: { kind: 'precomputed' } }],
      },
    },
    engineKinds: {
      // Sent whole by the coherence layer, as the built-in kind is: one evaluation per request.
      precomputed: {
        configSchema: z.looseObject({ kind: z.string() }),
        create: () => precomputed,
        answersQuestionsIndependently: true,
      },
    },
  };
}

function startChild(args, env = process.env, script = import.meta.filename) {
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
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

function loadOptions(url, headers, connections) {
  return {
    url: `${url}/v1/decision`,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(SIX_QUESTION_REQUEST),
    connections,
  };
}

async function load(url, headers, label, connections, pid) {
  const options = loadOptions(url, headers, connections);
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

/** The machine's load average as `uptime` prints it (1, 5, 15 minutes). */
function loadAverage() {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
}

async function responseBytesOf(server) {
  const probe = await fetch(`${server.url}/v1/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.key}` },
    body: JSON.stringify(SIX_QUESTION_REQUEST),
  });
  const text = await probe.text();
  if (probe.status !== 200) throw new Error(`arbiter answered ${probe.status}: ${text}`);
  return Buffer.byteLength(text);
}

/** Runs every load, prints the table and the aims; true when every aim is met. */
async function measure() {
  const loadBefore = loadAverage();
  const arbiter = await startChild(['--serve', 'arbiter']);
  const responseBytes = await responseBytesOf(arbiter);
  const bare = await startChild(['--serve', 'bare', '--body-bytes', String(responseBytes)]);
  const floor = await startChild(['--serve', 'floor']);
  const servers = {
    decision: { label: 'arbiter /v1/decision (6 questions)', ...arbiter, auth: true },
    floor: { label: 'same route, precomputed answers', ...floor, auth: true },
    baseline: { label: 'bare Fastify, constant body', ...bare, auth: false },
  };
  if (values.compare) {
    // The other checkout's own copy of this script, so its servers load its own build.
    const script = path.resolve(values.compare, 'bench', 'decision-http.mjs');
    const other = (kind) => startChild(['--serve', kind], process.env, script);
    servers.compareDecision = { label: 'compared: 6 questions', ...(await other('arbiter')), auth: true };
    servers.compareFloor = { label: 'compared: precomputed answers', ...(await other('floor')), auth: true };
  }

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
    `node ${process.version}, ${os.cpus().length} CPUs, load average ${loadBefore} before, ${loadAverage()} after, ` +
      `${values.rounds} alternating rounds of ${values.duration} s per load (medians), response ${responseBytes} bytes`,
  );
  const result = {};
  for (const [connections, rows] of Object.entries(loads)) {
    const figures = Object.fromEntries(Object.entries(rows).map(([name, list]) => [name, summary(list)]));
    const { decision: a, floor: f, baseline: b } = figures;
    result[connections] = { a, f, b, ca: figures.compareDecision, cf: figures.compareFloor };
    console.log(`${connections} connection${connections === '1' ? '' : 's'}:`);
    for (const [name, figure] of Object.entries(figures)) console.log(row(servers[name].label, figure));
    const cpu =
      a.cpuUs === null || f.cpuUs === null || b.cpuUs === null
        ? ''
        : `; server CPU ${(a.cpuUs / b.cpuUs).toFixed(2)}× bare (floor ${(f.cpuUs / b.cpuUs).toFixed(2)}×)`;
    console.log(
      `  p50 ratio ${(a.p50 / b.p50).toFixed(2)}× (floor ${(f.p50 / b.p50).toFixed(2)}×), ` +
        `throughput ${(a.rps / b.rps).toFixed(2)} of bare (floor ${(f.rps / b.rps).toFixed(2)})${cpu}`,
    );
    const { compareDecision: ca, compareFloor: cf } = figures;
    if (ca && cf) {
      const compareCpu =
        ca.cpuUs === null || cf.cpuUs === null || b.cpuUs === null
          ? ''
          : `; server CPU ${(ca.cpuUs / b.cpuUs).toFixed(2)}× bare (floor ${(cf.cpuUs / b.cpuUs).toFixed(2)}×)`;
      console.log(
        `  compared: p50 ratio ${(ca.p50 / b.p50).toFixed(2)}× (floor ${(cf.p50 / b.p50).toFixed(2)}×), ` +
          `throughput ${(ca.rps / b.rps).toFixed(2)} of bare (floor ${(cf.rps / b.rps).toFixed(2)})${compareCpu}`,
      );
    }
  }
  if (values.compare) {
    console.log(`aims (issue 30) of ${values.compare}, same rounds:`);
    const other = (figures) => ({ ...figures, a: figures.ca, f: figures.cf });
    printAims(aimsOf(other(result[1]), other(result[values.connections])));
  }
  console.log('aims (issue 30):');
  const aims = aimsOf(result[1], result[values.connections]);
  printAims(aims);
  const met = aims.filter((aim) => aim.met(aim.measured)).length;
  console.log(`  ${met} of ${aims.length} aims met`);
  await printEngineCost(result[1]);
  return met === aims.length;
}

/**
 * The built-in engine's CPU per question, two ways: in the servers (the six-question request's CPU
 * per answer less the floor's, over six), and in this process (`engine.evaluate` of the same
 * request in a loop, after a warm-up), which a loaded machine moves less.
 */
async function printEngineCost(latency) {
  const questions = Object.keys(SIX_QUESTION_REQUEST.questions).length;
  const { a, f } = latency;
  const inServer =
    a.cpuUs === null || f.cpuUs === null ? 'n/a' : `${((a.cpuUs - f.cpuUs) / questions).toFixed(0)} µs`;
  const { createBuiltinEngine } = await import('@arbiter/engine');
  const engine = createBuiltinEngine();
  const evaluateFor = async (ms) => {
    const start = process.cpuUsage();
    const until = performance.now() + ms;
    let count = 0;
    while (performance.now() < until) {
      await engine.evaluate(SIX_QUESTION_REQUEST);
      count++;
    }
    const cpu = process.cpuUsage(start);
    return (cpu.user + cpu.system) / (count * questions);
  };
  await evaluateFor(1000); // warm-up: the word vectors, memoised readings, JIT
  const rounds = [];
  for (let round = 0; round < 5; round++) rounds.push(await evaluateFor(400));
  rounds.sort((x, y) => x - y);
  console.log(
    `built-in engine, CPU per question: ${inServer} in the server at 1 connection ((six questions − floor) / ${questions}); ` +
      `${rounds[2].toFixed(0)} µs in a loop in one process (median of 5 rounds, fastest ${rounds[0].toFixed(0)} µs)`,
  );
}

/** The aims of issue 30 from the medians at one connection and at `--connections`. */
function aimsOf(latency, throughput) {
  return [
    {
      name: 'floor (same route, precomputed answers), p50 at 1 connection',
      measured: latency.f.p50 / latency.b.p50,
      text: (value) => `${value.toFixed(2)}× bare`,
      met: (value) => value <= AIMS.floorLatency,
      aim: `≤ ${AIMS.floorLatency}× bare`,
    },
    {
      name: 'six-question request, p50 at 1 connection',
      measured: latency.a.p50 / latency.b.p50,
      text: (value) => `${value.toFixed(2)}× bare`,
      met: (value) => value <= AIMS.decisionLatency,
      aim: `≤ ${AIMS.decisionLatency}× bare`,
    },
    {
      name: `six-question request, throughput at ${values.connections} connections`,
      measured: throughput.a.rps,
      text: (value) => `${value.toFixed(0)} req/s (${(value / throughput.b.rps).toFixed(2)} of bare)`,
      met: (value) => value >= AIMS.throughput,
      aim: `≥ ${AIMS.throughput} req/s`,
    },
  ];
}

function printAims(aims) {
  for (const aim of aims) {
    const verdict = aim.met(aim.measured) ? 'PASS' : 'FAIL';
    console.log(`  ${verdict}  ${aim.name}: ${aim.text(aim.measured)} (aim ${aim.aim})`);
  }
}

/**
 * In a server child: V8's CPU profiler, started on SIGUSR2 (after the parent's warm-up). Returns
 * the function that stops it and writes the profile to `file`, which the SIGTERM handler awaits.
 */
async function profileOnSignal(file) {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  // 100 µs between samples: a request of the floor spans a few samples.
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  process.on('SIGUSR2', async () => {
    await session.post('Profiler.start');
    process.stdout.write('PROFILING\n');
  });
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(file, JSON.stringify(profile));
    process.stdout.write('PROFILED\n');
  };
}

/** Loads one server under the profiler and prints its costs per request, by area and by function. */
async function profile(kind) {
  const file =
    values['profile-out'] ?? path.join(os.tmpdir(), `decision-http-${kind}-${process.pid}.cpuprofile`);
  const args = ['--serve', kind];
  if (kind === 'bare') args.push('--body-bytes', '1800');
  const server = await startChild(args, { ...process.env, BENCH_CPU_PROFILE: file });
  const headers = kind === 'bare' ? {} : { authorization: `Bearer ${server.key}` };
  const options = loadOptions(server.url, headers, 1);
  await autocannon({ ...options, duration: 2 }); // warm-up, outside the profile
  const said = (word) =>
    new Promise((resolve) => {
      const listen = (chunk) => {
        if (String(chunk).includes(word)) {
          server.child.stdout.off('data', listen);
          resolve();
        }
      };
      server.child.stdout.on('data', listen);
    });
  const started = said('PROFILING');
  server.child.kill('SIGUSR2');
  await started;
  const cpuBefore = cpuMs(server.child.pid);
  const result = await autocannon({ ...options, duration: Number(values.duration) });
  const cpuAfter = cpuMs(server.child.pid);
  const written = said('PROFILED');
  server.child.kill('SIGTERM');
  await written;
  const requests = result.requests.total;
  console.log(
    `${kind}: ${requests} requests at 1 connection in ${values.duration} s, load average ${loadAverage()}; ` +
      `server CPU ${(((cpuAfter - cpuBefore) * 1000) / requests).toFixed(0)} µs/request (from /proc); profile ${file}`,
  );
  printProfile(JSON.parse(fs.readFileSync(file, 'utf8')), requests);
}

/**
 * Which part of the stack a function belongs to, by its script: the areas a cut would be made in.
 * Native frames (`writev`, the garbage collector) are named by themselves.
 */
function areaOf(frame) {
  const url = frame.url;
  if (!url) {
    if (frame.functionName.startsWith('(')) return frame.functionName;
    // Anonymous code without a script is made by `new Function`: here, zod's compiled validators.
    return frame.functionName ? `native ${frame.functionName}` : 'code made by new Function (zod.compile)';
  }
  if (url.startsWith('node:'))
    return /_http|http_|net|stream|events|task_queues|timers/.test(url)
      ? 'node http, net, streams'
      : 'node other';
  const module = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (module)
    return module[1] === 'fastify' || module[1] === 'find-my-way' || module[1] === 'avvio'
      ? 'fastify'
      : module[1];
  const own = url.match(/packages\/(.+?)\/dist\/(.+?)\.js/);
  if (own) return `@arbiter/${own[1]} ${own[2].split('/').slice(0, -1).join('/') || own[2]}`;
  return url.replace(/^file:\/\//, '');
}

function printProfile(prof, requests) {
  const byId = new Map(prof.nodes.map((node) => [node.id, node]));
  // The profiler's own start and stop calls (through node:inspector) are not the server's work.
  const profiling = new Set();
  const mark = (node, inside) => {
    const here = inside || node.callFrame.url === 'node:inspector';
    if (here) profiling.add(node.id);
    for (const child of node.children ?? []) mark(byId.get(child), here);
  };
  mark(prof.nodes[0], false);
  const selfUs = new Map();
  for (let index = 0; index < prof.samples.length; index++) {
    const id = prof.samples[index];
    if (profiling.has(id)) continue;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (prof.timeDeltas[index] ?? 0));
  }
  const byArea = new Map();
  const byFunction = new Map();
  let busy = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id).callFrame;
    if (frame.functionName === '(idle)') continue;
    busy += us;
    const area = areaOf(frame);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*node_modules\//, '').replace(/^.*packages\//, '')}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const top = (map, count) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, us]) => `  ${(us / requests).toFixed(1).padStart(7)} µs  ${name}`)
      .join('\n');
  // Wall-clock samples: on a loaded machine a preempted call is counted as busy too.
  console.log(`busy (not idle) ${(busy / requests).toFixed(1)} µs per request, by area (self time):`);
  console.log(top(byArea, 20));
  console.log('by function (self time):');
  console.log(top(byFunction, 30));
}
