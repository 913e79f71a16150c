// One tenant cannot stall the server (issue 29): a principal's turn creates tens of thousands of
// files with one `@shell` line of the offline model, in the real sandbox, while this script polls
// `/health` and runs another principal's one-line task over and over. Then the heavy session's file
// list, archive and delete are timed. The server is `arbiter serve` (`startServer`) in its own
// process, so the load generator never shares its event loop.
// Aims: `/health` under 0.5 s at every poll; the other principal's task at most 3× its quiet latency.
// Each figure is also given per phase of the heavy turn (`program`: the tenant's program runs;
// `end`: the server ends the turn) with the server's event-loop delay, CPU time and the time its main
// thread waited for a CPU, so a stall of the server's code can be told from a busy host.
// Run: npx tsx bench/tenant-fairness.mjs [--files 40000] [--quiet 10] [--poll-ms 100]
//        [--sandbox '{"priority":{"nice":0,"io":"unchanged"}}']   (the server's `sandbox` section)
//      FAIRNESS_PROF=<dir> adds a CPU profile of the server process.

import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '40000' },
    quiet: { type: 'string', default: '10' },
    'poll-ms': { type: 'string', default: '100' },
    serve: { type: 'string' },
    // Options of the server's `sandbox` section, as JSON (to compare settings run by run).
    sandbox: { type: 'string' },
  },
});

if (values.serve) {
  // ── server process ────────────────────────────────────────────────────────
  const { startServer } = await import('../packages/server/src/server.ts');
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir: values.serve,
    logger: false,
    harness: {
      offlineChunkDelayMs: 0,
      ...(process.env.FAIRNESS_SANDBOX ? { sandbox: JSON.parse(process.env.FAIRNESS_SANDBOX) } : {}),
    },
  });
  // The server's own event-loop delay and CPU time, phase by phase of the heavy turn: a stall of
  // the event loop shows here, while CPU or I/O contention from the tenant's programs does not.
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let cpu = process.cpuUsage();
  // The main thread's time waiting for a CPU while runnable (/proc schedstat, Linux): what the
  // scheduler, not the server's code, added to the event loop's delay.
  const runQueueWait = () => {
    try {
      return Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
    } catch {
      return Number.NaN;
    }
  };
  let waited = runQueueWait();
  let since = performance.now();
  process.on('message', (message) => {
    if (message === 'stop') void server.close().then(() => process.exit(0));
    if (message === 'phase') {
      const used = process.cpuUsage(cpu);
      process.send({
        phase: {
          maxMs: delay.max / 1e6,
          p99Ms: delay.percentile(99) / 1e6,
          meanMs: delay.mean / 1e6,
          cpuMs: (used.user + used.system) / 1000,
          waitMs: runQueueWait() - waited,
          wallMs: performance.now() - since,
        },
      });
      delay.reset();
      cpu = process.cpuUsage();
      waited = runQueueWait();
      since = performance.now();
    }
  });
  process.send({ url: server.url, key: server.initialKey });
} else {
  // ── load generator ────────────────────────────────────────────────────────
  const fileCount = Number(values.files);
  const pollMs = Number(values['poll-ms']);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-fairness-'));
  const child = fork(fileURLToPath(import.meta.url), ['--serve', dataDir], {
    execArgv: [
      '--conditions=arbiter-source',
      '--import',
      'tsx',
      ...(process.env.FAIRNESS_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.FAIRNESS_PROF}`] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...(values.sandbox ? { FAIRNESS_SANDBOX: values.sandbox } : {}) },
  });
  const { url, key: operator } = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });

  const seconds = (ms) => `${(ms / 1000).toFixed(3)} s`;
  const percentile = (values, p) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  };
  // A request that fails (a connection reset while the server was stalled) counts, with its time.
  let failures = 0;
  const timed = async (work) => {
    const start = performance.now();
    try {
      const result = await work();
      return { ms: performance.now() - start, result };
    } catch (error) {
      failures++;
      return { ms: performance.now() - start, result: null, error };
    }
  };
  const keyFor = async (principal) => {
    const response = await fetch(`${url}/v1/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
      body: JSON.stringify({ principal }),
    });
    if (response.status !== 201) throw new Error(`key for ${principal}: ${response.status}`);
    return (await response.json()).key;
  };
  const heavyKey = await keyFor('heavy');
  const lightKey = await keyFor('light');
  const harness = `${url}/api/harness`;
  const task = async (key, input) => {
    const response = await fetch(`${harness}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input }),
    });
    return response.json();
  };
  const health = () => fetch(`${url}/health`).then((response) => response.text());

  // Warm-up: each path the measurement takes runs once first (modules load lazily, /etc is staged
  // for the sandbox at its first start), so the figures are the steady state.
  for (let i = 0; i < 20; i++) await task(lightKey, '@say warm up');
  await task(heavyKey, '@shell true');
  // Quiet figures: nothing else running.
  const quiet = [];
  for (let i = 0; i < Number(values.quiet); i++)
    quiet.push((await timed(() => task(lightKey, '@say hi'))).ms);
  const quietHealth = [];
  for (let i = 0; i < 20; i++) quietHealth.push((await timed(health)).ms);

  // The heavy turn, with the polls and the other principal's tasks running beside it. It is
  // streamed, and a `@say` after the `@shell` marks when the program ended, so each figure below is
  // counted in its phase: `program` (the tenant's sandboxed program runs) or `end` (the turn's end in
  // the server: artifact collection, workspace measurement, the terminal write).
  const command = `mkdir -p many && cd many && seq 1 ${fileCount} | xargs touch`;
  const phaseFigures = () =>
    new Promise((resolve) => {
      child.once('message', (message) => resolve(message.phase));
      child.send('phase');
    });
  await phaseFigures();
  let phase = 'program';
  const phases = {};
  let heavyDone = false;
  const heavy = timed(async () => {
    const response = await fetch(`${harness}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${heavyKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: `@shell ${command}\n@say program-ended`, stream: true }),
    });
    let text = '';
    let completed = null;
    for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      if (phase === 'program' && text.includes('program-ended')) {
        phases.program = await phaseFigures();
        phase = 'end';
      }
    }
    for (const block of text.split('\n\n')) {
      const data = block.split('\n').find((line) => line.startsWith('data: '));
      if (!data) continue;
      const event = JSON.parse(data.slice(6));
      if (event.response && event.type !== 'response.output_text.delta') completed = event.response;
    }
    phases.end = await phaseFigures();
    return completed;
  }).finally(() => {
    heavyDone = true;
  });
  const healthPolls = [];
  const polling = (async () => {
    while (!heavyDone) {
      const at = phase;
      healthPolls.push({ ...(await timed(health)), phase: at });
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  })();
  const busy = [];
  const tasking = (async () => {
    while (!heavyDone) {
      const at = phase;
      busy.push({ ...(await timed(() => task(lightKey, '@say hi'))), phase: at });
    }
  })();
  const heavyTurn = await heavy;
  await Promise.all([polling, tasking]);
  const busyMs = busy.map((entry) => entry.ms);
  const healthMs = healthPolls.map((entry) => entry.ms);
  const heavyBody = heavyTurn.result ?? {};
  const session = heavyBody.metadata?.session_id;
  const auth = { authorization: `Bearer ${heavyKey}` };

  const list = await timed(() =>
    fetch(`${harness}/v1/sessions/${session}/files`, { headers: auth }).then((r) => r.arrayBuffer()),
  );
  const page = await timed(() =>
    fetch(`${harness}/v1/sessions/${session}/files?limit=100`, { headers: auth }).then((r) =>
      r.arrayBuffer(),
    ),
  );
  const archive = await timed(() =>
    fetch(`${harness}/v1/sessions/${session}/files/archive`, { headers: auth }).then((r) => r.arrayBuffer()),
  );
  // The delete, with /health polled beside it.
  let deleteDone = false;
  const deleteHealth = [];
  const deletePolling = (async () => {
    while (!deleteDone) {
      deleteHealth.push((await timed(health)).ms);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  })();
  const removal = await timed(() =>
    fetch(`${harness}/v1/sessions/${session}`, { method: 'DELETE', headers: auth }).then((r) => r.text()),
  );
  deleteDone = true;
  await deletePolling;

  const quietMedian = percentile(quiet, 50);
  console.log(`files created by the heavy turn: ${fileCount}`);
  console.log(
    `heavy turn: ${seconds(heavyTurn.ms)}, status ${heavyBody.status}${heavyBody.error ? ` (${heavyBody.error.code})` : ''}, ${heavyBody.output?.at?.(-1)?.content?.[0]?.annotations?.length ?? 0} files cited`,
  );
  console.log(
    `other principal's task, quiet: median ${seconds(quietMedian)}, max ${seconds(Math.max(...quiet))}`,
  );
  console.log(
    `other principal's task, during the heavy turn: ${busy.length} tasks, median ${seconds(percentile(busyMs, 50))}, p95 ${seconds(percentile(busyMs, 95))}, max ${seconds(Math.max(...busyMs, 0))} (${(Math.max(...busyMs, 0) / quietMedian).toFixed(1)}× quiet median; aim ≤ 3×)`,
  );
  console.log(`/health quiet: max ${seconds(Math.max(...quietHealth))}`);
  console.log(
    `/health during the heavy turn: ${healthPolls.length} polls, p50 ${seconds(percentile(healthMs, 50))}, p95 ${seconds(percentile(healthMs, 95))}, max ${seconds(Math.max(...healthMs, 0))}, over 0.5 s: ${healthMs.filter((ms) => ms > 500).length}`,
  );
  for (const name of ['program', 'end']) {
    const figures = phases[name];
    const tasks = busy.filter((entry) => entry.phase === name).map((entry) => entry.ms);
    const polls = healthPolls.filter((entry) => entry.phase === name).map((entry) => entry.ms);
    console.log(
      `phase ${name}: other task ${tasks.length}× median ${seconds(percentile(tasks, 50))} max ${seconds(Math.max(...tasks, 0))}; /health max ${seconds(Math.max(...polls, 0))}; server event-loop delay max ${figures ? `${figures.maxMs.toFixed(1)} ms, p99 ${figures.p99Ms.toFixed(1)} ms, mean ${figures.meanMs.toFixed(1)} ms, server main thread over ${figures.wallMs.toFixed(0)} ms: CPU (all threads) ${figures.cpuMs.toFixed(0)} ms, waiting for a CPU ${figures.waitMs.toFixed(0)} ms` : 'n/a'}`,
    );
  }
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  console.log(`requests that failed (connection reset, …): ${failures}`);
  console.log(`session file list, whole: ${seconds(list.ms)}, ${list.result?.byteLength} bytes`);
  console.log(`session file list, ?limit=100: ${seconds(page.ms)}, ${page.result?.byteLength} bytes`);
  console.log(`session archive: ${seconds(archive.ms)}, ${archive.result?.byteLength} bytes`);
  console.log(
    `session delete: ${seconds(removal.ms)}; /health meanwhile: ${deleteHealth.length} polls, max ${seconds(Math.max(...deleteHealth, 0))}`,
  );
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
