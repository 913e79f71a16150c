// Cost of starting a task program in the process sandbox (bubblewrap: namespaces, the system view,
// dropping root, the limits) against the same program started directly, in the same run, alternating
// so that machine load falls on all alike. Each sample is spawn → exit of `/bin/sh -c true`. Two
// sandboxes are measured: the one `arbiter serve` uses (limits set by the sandbox's /bin/sh), and
// the same with util-linux prlimit setting the limits (one exec more: the previous way, and the
// fallback). Besides wall time it reports the CPU the started processes used (the children's
// user+system time from /proc/self/stat, 10 ms ticks summed over all runs), which machine load
// distorts far less, and the load average before and after. A fourth line, `floor`, is a bare
// bubblewrap start with the same namespaces: what any bubblewrap sandbox costs on this machine. A
// fifth, `per-entry`, is the sandbox with each allow-listed /etc entry bound by name (sandbox.etc:
// per-entry) instead of the one staged copy the server mounts by default.
// The server's identity decides the sandbox: run as root it drops to a leased id with setpriv; run
// as an ordinary user (e.g. `setpriv --reuid=65534 --regid=65534 --clear-groups node bench/…`)
// bubblewrap makes a user namespace and no process is added.
//   npx tsc -b && node bench/sandbox-start.mjs [--runs N]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessSandbox } from '../packages/harness-server/dist/uhp/sandbox/process-sandbox.js';

const runsIndex = process.argv.indexOf('--runs');
const runs = runsIndex === -1 ? 200 : Number(process.argv[runsIndex + 1]);
const root = mkdtempSync(join(tmpdir(), 'sandbox-start-'));
const argv = ['/bin/sh', '-c', 'true'];
const options = { signal: new AbortController().signal, timeoutMs: 10_000, outputCapBytes: 1024 };
const sandboxed = await ProcessSandbox.open();
const withPrlimit = await ProcessSandbox.open({}, { limitSetters: ['prlimit'] });
const perEntry = await ProcessSandbox.open({ etc: 'per-entry' });
const direct = await ProcessSandbox.open({ mode: 'off-unsafe' });
for (const sandbox of [sandboxed, withPrlimit, perEntry])
  if (sandbox.state.kind !== 'bubblewrap') throw new Error(`no sandbox here: ${sandbox.describe()}`);
// The floor of any bubblewrap sandbox with the same namespaces here: bwrap itself, the namespaces
// the sandbox unshares, a fresh /proc, /dev and /tmp, and /usr read-only; no system view beyond
// it, no uid change, no limits, no environment. What `sandboxed` adds over it is Arbiter's.
const usrMerged = ['bin', 'lib', 'lib64', 'sbin'].flatMap((name) =>
  existsSync(`/usr/${name}`) ? ['--symlink', `usr/${name}`, `/${name}`] : [],
);
const floorArgs = [
  ...['--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--unshare-net'],
  ...['--new-session', '--die-with-parent', '--ro-bind', '/usr', '/usr', ...usrMerged],
  ...['--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', ...argv],
];
const floor = {
  run: () =>
    new Promise((resolve, reject) => {
      const child = spawn('bwrap', floorArgs, { stdio: 'ignore' });
      child.on('error', reject);
      child.on('exit', (exitCode) => resolve({ exitCode, output: '' }));
    }),
};
const sandboxes = { direct, floor, sandboxed, prlimit: withPrlimit, 'per-entry': perEntry };
const loadBefore = loadavg();

// Children's CPU (utime + stime of reaped children), in clock ticks of 10 ms.
const childTicks = () => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return Number(fields[13]) + Number(fields[14]);
};
const cpuTicks = { direct: 0, floor: 0, sandboxed: 0, prlimit: 0, 'per-entry': 0 };

async function sample(name, sandbox = sandboxes[name]) {
  const ticks = childTicks();
  const started = performance.now();
  const result = await sandbox.run({ argv, workspace: root, purpose: 'command' }, options);
  if (result.exitCode !== 0) throw new Error(`exit ${result.exitCode}: ${result.output}`);
  const elapsed = performance.now() - started;
  cpuTicks[name] += childTicks() - ticks;
  return elapsed;
}

const times = { direct: [], floor: [], sandboxed: [], prlimit: [], 'per-entry': [] };
for (let index = 0; index < 15; index++) await sample('direct', Object.values(sandboxes)[index % 5]); // warm-up
cpuTicks.direct = 0;
for (let index = 0; index < runs; index++)
  for (const name of Object.keys(times)) times[name].push(await sample(name));
rmSync(root, { recursive: true, force: true });
const loadAfter = loadavg();

const quantile = (values, q) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const row = (name, values) =>
  `${name.padEnd(10)} p50 ${quantile(values, 0.5).toFixed(2).padStart(7)} ms   p90 ${quantile(values, 0.9).toFixed(2).padStart(7)} ms   p99 ${quantile(values, 0.99).toFixed(2).padStart(7)} ms`;
const load = (values) => values.map((value) => value.toFixed(2)).join(' ');
console.log(`${sandboxed.describe()}\nload average before: ${load(loadBefore)}; after: ${load(loadAfter)}`);
console.log(
  `${runs} runs each, alternating (prlimit: the same sandbox with prlimit setting the limits; per-entry: /etc bound entry by entry):`,
);
for (const name of Object.keys(times)) console.log(row(name, times[name]));
const cpu = (name) => (cpuTicks[name] * 10) / runs;
console.log(
  `CPU of the started processes per start: direct ${cpu('direct').toFixed(2)} ms, floor ${cpu('floor').toFixed(2)} ms, sandboxed ${cpu('sandboxed').toFixed(2)} ms (added ${(cpu('sandboxed') - cpu('direct')).toFixed(2)} ms), prlimit ${cpu('prlimit').toFixed(2)} ms (added ${(cpu('prlimit') - cpu('direct')).toFixed(2)} ms)`,
);
const p50 = (name) => quantile(times[name], 0.5);
for (const name of ['floor', 'sandboxed', 'prlimit', 'per-entry'])
  console.log(
    `${name}: added at p50 ${(p50(name) - p50('direct')).toFixed(2)} ms (aim ≤ 15 ms); ratio to direct at p50 ${(p50(name) / p50('direct')).toFixed(2)}×`,
  );
console.log(
  `sandboxed over the bubblewrap floor at p50: ${(p50('sandboxed') - p50('floor')).toFixed(2)} ms (what Arbiter's sandbox adds to any bubblewrap start with these namespaces)`,
);
