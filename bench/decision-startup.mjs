// Server start to first answer: spawn `arbiter serve` on a fresh data directory, wait for the URL,
// POST the 6-question request until it answers 200. Baseline in the same run: a bare node HTTP
// server started the same way (the cost of starting node itself).
//
//   npx tsc -b && node bench/decision-startup.mjs [--runs 5]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SIX_QUESTION_REQUEST } from './decision-request.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const BIN = path.resolve(import.meta.dirname, '../packages/cli/bin/arbiter.js');
const BARE = `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => s.end('{}')); })
  .listen(0, '127.0.0.1', function () { console.log('Arbiter listening on http://127.0.0.1:' + this.address().port); });`;

async function startToFirstAnswer(args) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-startup-'));
  const started = performance.now();
  const child = spawn(process.execPath, args(dataDir), { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
  });
  const url = await new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      const match = stdout.match(/Arbiter listening on (\S+)\n/);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  // The first key is printed on stderr just before the URL line on stdout.
  while (!/arb_\S+/.test(stderr) && args(dataDir)[0] === BIN) await new Promise((r) => setTimeout(r, 1));
  const key = stderr.match(/arb_\S+/)?.[0];
  const response = await fetch(`${url}/v1/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(SIX_QUESTION_REQUEST),
  });
  await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`first answer was ${response.status}`);
  const cpu = cpuMillisecondsOf(child.pid);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { elapsed, cpu };
}

/**
 * CPU time the process used so far (user + system, Linux /proc), or NaN elsewhere. On a machine
 * shared with other jobs, wall time mostly measures the queue for a core; CPU time does not.
 */
function cpuMillisecondsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of the stat line, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const wall = (runs) => runs.map((run) => run.elapsed);
const cpu = (runs) => runs.map((run) => run.cpu);
const runs = Number(values.runs);
const arbiter = [];
const bare = [];
for (let i = 0; i < runs; i++) {
  arbiter.push(
    await startToFirstAnswer((dir) => [
      BIN,
      'serve',
      '--port',
      '0',
      '--data-dir',
      dir,
      '--log-level',
      'warn',
    ]),
  );
  bare.push(await startToFirstAnswer(() => ['-e', BARE]));
}
console.log(
  `node ${process.version}, ${os.cpus().length} CPUs, ${runs} runs each, load average ${os.loadavg()[0].toFixed(2)}`,
);
const line = (label, runs) =>
  `${label.padEnd(38)} wall median ${median(wall(runs)).toFixed(0).padStart(5)} ms (${wall(runs)
    .map((x) => x.toFixed(0))
    .join(', ')})   CPU median ${median(cpu(runs)).toFixed(0).padStart(5)} ms`;
console.log(line('arbiter serve, start to first answer', arbiter));
console.log(line('bare node http, start to first answer', bare));
console.log(`wall ratio ${(median(wall(arbiter)) / median(wall(bare))).toFixed(2)}×; aim: ≤ 1000 ms wall`);
