// CPU time (user + sys of the child processes) of one `arbiter gate hook claude-code` call
// against `node -e 0`, measured in the same run (aim: ≤ 1.5×). bash's `times` builtin reports the
// accumulated rusage of finished children, so each side runs N times in its own bash.
//
// Two ways the hook runs: forwarded to the warm gate daemon (the default; the daemon's own CPU for
// the calls is read from /proc and reported beside the hook processes', so nothing is hidden), and
// alone in its process (ARBITER_GATE_DAEMON=off, also what the first call of a session costs).
//   npx tsc -b && node bench/gate-hook-cpu.mjs [--runs N]
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repositoryRoot } from './gate-dev-set.mjs';

const runsIndex = process.argv.indexOf('--runs');
const runs = runsIndex === -1 ? 20 : Number(process.argv[runsIndex + 1]);
const directory = mkdtempSync(join(tmpdir(), 'gate-hook-cpu-'));
const input = join(directory, 'hook.json');
writeFileSync(
  input,
  JSON.stringify({
    session_id: 'bench',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'git status && npm test -- --run' },
    cwd: directory,
    permission_mode: 'default',
    tool_use_id: 'toolu_bench',
  }),
);
const launcher = resolve(repositoryRoot, 'packages/cli/bin/arbiter.js');

/** Average user+sys CPU seconds of one child, from bash's `times` after `runs` runs. */
function childCpu(command, environment = process.env) {
  const script = `for i in $(seq ${runs}); do ${command} < '${input}' > /dev/null; done; times`;
  const output = execFileSync('bash', ['-c', script], { encoding: 'utf8', env: environment });
  const children = output.trim().split('\n').at(-1);
  const [user, sys] = children.split(/\s+/).map((value) => {
    const match = /^(\d+)m([\d.]+)s$/.exec(value);
    return Number(match[1]) * 60 + Number(match[2]);
  });
  return { user: user / runs, sys: sys / runs, total: (user + sys) / runs };
}

// A private runtime directory, so this run starts and measures its own daemon.
const runtime = join(directory, 'runtime');
mkdirSync(runtime, { mode: 0o700 });
const daemonOn = { ...process.env, XDG_RUNTIME_DIR: runtime };
delete daemonOn.ARBITER_GATE_DAEMON;
const daemonOff = { ...process.env, ARBITER_GATE_DAEMON: 'off' };
const hookCommand = `'${process.execPath}' '${launcher}' gate hook claude-code`;
const run = (environment) =>
  execFileSync('bash', ['-c', `${hookCommand} < '${input}'`], { encoding: 'utf8', env: environment });

const alone = run(daemonOff);
const first = run(daemonOn); // judged in-process; starts the daemon
const pidFile = await waitFor(() =>
  readdirSync(join(runtime, 'arbiter')).find((name) => name.endsWith('.pid')),
);
const daemonPid = Number(readFileSync(join(runtime, 'arbiter', pidFile), 'utf8'));
const forwarded = run(daemonOn);
if (alone !== first || first !== forwarded) throw new Error(`answers differ:\n${alone}${first}${forwarded}`);

const baseline = childCpu(`'${process.execPath}' -e 0`);
const inProcess = childCpu(hookCommand, daemonOff);
const daemonBefore = processCpuSeconds(daemonPid);
const hook = childCpu(hookCommand, daemonOn);
const daemonPerCall = (processCpuSeconds(daemonPid) - daemonBefore) / runs;
process.kill(daemonPid, 'SIGTERM');
rmSync(directory, { recursive: true, force: true });

const ms = (seconds) => `${(seconds * 1000).toFixed(1)} ms`;
const ratio = (seconds) => `×${(seconds / baseline.total).toFixed(2)}`;
console.log(`hook output: ${forwarded.trim() || '(nothing: no opinion)'}`);
console.log(
  `node -e 0:                              user ${ms(baseline.user)} + sys ${ms(baseline.sys)} = ${ms(baseline.total)} per process`,
);
console.log(
  `gate hook, forwarded to the daemon:     user ${ms(hook.user)} + sys ${ms(hook.sys)} = ${ms(hook.total)} per process (${ratio(hook.total)}; aim ≤ ×1.5)`,
);
console.log(
  `  + the daemon's CPU per call:          ${ms(daemonPerCall)} → ${ms(hook.total + daemonPerCall)} per call in all (${ratio(hook.total + daemonPerCall)})`,
);
console.log(
  `gate hook alone (ARBITER_GATE_DAEMON=off): user ${ms(inProcess.user)} + sys ${ms(inProcess.sys)} = ${ms(inProcess.total)} per process (${ratio(inProcess.total)})`,
);
console.log(`${runs} runs each; node ${process.version}`);

/** user + system CPU seconds of a running process, from /proc/<pid>/stat (Linux). */
function processCpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond; // utime, stime
}

async function waitFor(probe, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = existsSync(join(runtime, 'arbiter')) ? probe() : undefined;
    if (value) return value;
    if (Date.now() > deadline) throw new Error('the gate daemon did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
