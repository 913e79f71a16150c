// Cost of starting a task program in the process sandbox (bubblewrap: namespaces, the system view,
// setpriv and prlimit) against the same program started directly, in the same run, alternating so
// that machine load falls on both alike. Each sample is spawn → exit of `/bin/sh -c true`. Besides
// wall time it reports the CPU the started processes used (the children's user+system time from
// /proc/self/stat, 10 ms ticks summed over all runs), which machine load distorts far less.
//   npx tsc -b && node bench/sandbox-start.mjs [--runs N]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessSandbox } from '../packages/harness-server/dist/uhp/sandbox/process-sandbox.js';

const runsIndex = process.argv.indexOf('--runs');
const runs = runsIndex === -1 ? 200 : Number(process.argv[runsIndex + 1]);
const root = mkdtempSync(join(tmpdir(), 'sandbox-start-'));
const argv = ['/bin/sh', '-c', 'true'];
const options = { signal: new AbortController().signal, timeoutMs: 10_000, outputCapBytes: 1024 };
const sandboxed = await ProcessSandbox.open();
const direct = await ProcessSandbox.open({ mode: 'off-unsafe' });
if (sandboxed.state.kind !== 'bubblewrap') throw new Error(`no sandbox here: ${sandboxed.describe()}`);

// Children's CPU (utime + stime of reaped children), in clock ticks of 10 ms.
const childTicks = () => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return Number(fields[13]) + Number(fields[14]);
};
const cpuTicks = { sandboxed: 0, direct: 0 };

async function sample(name, sandbox) {
  const ticks = childTicks();
  const started = performance.now();
  const result = await sandbox.run({ argv, workspace: root, purpose: 'command' }, options);
  if (result.exitCode !== 0) throw new Error(`exit ${result.exitCode}: ${result.output}`);
  const elapsed = performance.now() - started;
  cpuTicks[name] += childTicks() - ticks;
  return elapsed;
}

const times = { sandboxed: [], direct: [] };
for (let index = 0; index < 10; index++) await sample('direct', index % 2 ? sandboxed : direct); // warm-up
cpuTicks.direct = 0;
for (let index = 0; index < runs; index++) {
  times.direct.push(await sample('direct', direct));
  times.sandboxed.push(await sample('sandboxed', sandboxed));
}
rmSync(root, { recursive: true, force: true });

const quantile = (values, q) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const row = (name, values) =>
  `${name.padEnd(10)} p50 ${quantile(values, 0.5).toFixed(2).padStart(7)} ms   p90 ${quantile(values, 0.9).toFixed(2).padStart(7)} ms   p99 ${quantile(values, 0.99).toFixed(2).padStart(7)} ms`;
console.log(`${sandboxed.describe()}\n${runs} runs each, alternating:`);
console.log(row('direct', times.direct));
console.log(row('sandboxed', times.sandboxed));
const cpu = (name) => (cpuTicks[name] * 10) / runs;
console.log(
  `CPU of the started processes per start: direct ${cpu('direct').toFixed(2)} ms, sandboxed ${cpu('sandboxed').toFixed(2)} ms (added ${(cpu('sandboxed') - cpu('direct')).toFixed(2)} ms)`,
);
const added = quantile(times.sandboxed, 0.5) - quantile(times.direct, 0.5);
console.log(
  `added at p50: ${added.toFixed(2)} ms (aim ≤ 15 ms); ratio sandboxed/direct at p50: ${(quantile(times.sandboxed, 0.5) / quantile(times.direct, 0.5)).toFixed(2)}×`,
);
