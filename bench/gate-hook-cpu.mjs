// CPU time (user + sys of the child processes) of one `arbiter gate hook claude-code` call
// against `node -e 0`, measured in the same run (aim: ≤ 1.5×). bash's `times` builtin reports the
// accumulated rusage of finished children, so each side runs N times in its own bash.
//   npx tsc -b && node bench/gate-hook-cpu.mjs [--runs N]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
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
function childCpu(command) {
  const script = `for i in $(seq ${runs}); do ${command} < '${input}' > /dev/null; done; times`;
  const output = execFileSync('bash', ['-c', script], { encoding: 'utf8' });
  const children = output.trim().split('\n').at(-1);
  const [user, sys] = children.split(/\s+/).map((value) => {
    const match = /^(\d+)m([\d.]+)s$/.exec(value);
    return Number(match[1]) * 60 + Number(match[2]);
  });
  return { user: user / runs, sys: sys / runs, total: (user + sys) / runs };
}

const hookOutput = execFileSync(
  'bash',
  ['-c', `'${process.execPath}' '${launcher}' gate hook claude-code < '${input}'`],
  {
    encoding: 'utf8',
  },
);
const baseline = childCpu(`'${process.execPath}' -e 0`);
const hook = childCpu(`'${process.execPath}' '${launcher}' gate hook claude-code`);
// The same hook without the rest of the CLI: what a launcher that loads only the hook would cost.
const hookModule = resolve(repositoryRoot, 'packages/cli/dist/commands/gate-hook.js');
const direct = childCpu(
  `'${process.execPath}' --input-type=module -e "const { runGateHook } = await import('${hookModule}'); await runGateHook('claude-code', {});"`,
);
const ms = (seconds) => `${(seconds * 1000).toFixed(1)} ms`;
console.log(`hook output: ${hookOutput.trim() || '(nothing: no opinion)'}`);
console.log(
  `node -e 0:                       user ${ms(baseline.user)} + sys ${ms(baseline.sys)} = ${ms(baseline.total)} per process`,
);
console.log(
  `arbiter gate hook claude-code:   user ${ms(hook.user)} + sys ${ms(hook.sys)} = ${ms(hook.total)} per process`,
);
console.log(
  `hook module without the CLI:     user ${ms(direct.user)} + sys ${ms(direct.sys)} = ${ms(direct.total)} per process`,
);
console.log(
  `ratio: ×${(hook.total / baseline.total).toFixed(2)} (aim ≤ ×1.5); hook module alone ×${(direct.total / baseline.total).toFixed(2)}; ${runs} runs each`,
);
