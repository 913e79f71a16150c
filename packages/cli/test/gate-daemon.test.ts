import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ARBITER_BIN, type CliRun, runArbiter } from './support/run-arbiter.js';

// Real `arbiter` processes and real daemons on Unix sockets: build first with `npx tsc -b`.
vi.setConfig({ testTimeout: 120_000 });

const RECORD_MODULES = resolve(import.meta.dirname, 'fixtures/loaded-modules/register.mjs');
let directory: string;
let runtime: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'arbiter-gate-daemon-'));
  runtime = join(directory, 'runtime');
  mkdirSync(runtime, { mode: 0o700 });
});

afterEach(() => {
  for (const pid of daemonPids()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone: it stepped down by itself.
    }
  }
  rmSync(directory, { recursive: true, force: true });
});

function daemonDirectory(): string {
  return join(runtime, 'arbiter');
}

function daemonPids(): number[] {
  if (!existsSync(daemonDirectory())) return [];
  return readdirSync(daemonDirectory())
    .filter((name) => name.endsWith('.pid'))
    .map((name) => Number(readFileSync(join(daemonDirectory(), name), 'utf8')));
}

interface HookRun extends CliRun {
  /** URLs of the modules the hook process loaded. */
  modules: string[];
}

/** `arbiter gate hook …` as a host runs it, with the daemon allowed, recording loaded modules. */
async function hook(
  args: readonly string[],
  input: string,
  environment: NodeJS.ProcessEnv = {},
): Promise<HookRun> {
  const modulesFile = join(directory, `modules-${Math.random().toString(36).slice(2)}.txt`);
  const run = await runArbiter(['gate', 'hook', ...args], {
    input,
    cwd: directory,
    nodeArgs: ['--import', RECORD_MODULES],
    env: { HOME: directory, XDG_RUNTIME_DIR: runtime, LOADED_MODULES_FILE: modulesFile, ...environment },
  });
  const modules = existsSync(modulesFile) ? readFileSync(modulesFile, 'utf8').trim().split('\n') : [];
  return { ...run, modules };
}

async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((wake) => setTimeout(wake, 50));
  }
}

/**
 * Gate daemons started by a hook of this test, wherever they would listen: a hook spawns its daemon
 * before it exits, so once the hook has exited any daemon it started is already in the process table,
 * and its environment names this test's runtime directory.
 */
function daemonsStartedHere(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!(argv.includes('gate') && argv.includes('daemon'))) continue;
      const environment = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (environment.includes(`XDG_RUNTIME_DIR=${runtime}`)) pids.push(Number(entry));
    } catch {
      // Exited while being read, or another user's process.
    }
  }
  return pids;
}

const waitForDaemon = () => waitFor(() => daemonPids()[0], 'the gate daemon to listen');

const bashCall = (command: string) =>
  JSON.stringify({
    session_id: 's1',
    cwd: '/tmp/project',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'toolu_1',
  });

const loadedTheGate = (run: HookRun) => run.modules.some((url) => url.includes('/tool-gate/'));

describe('arbiter gate hook with the gate daemon', () => {
  it('starts a daemon on the first call and forwards later calls to it, answering byte for byte alike', async () => {
    const alone = await hook(['claude-code'], bashCall('rm -rf ~'), { ARBITER_GATE_DAEMON: 'off' });
    const first = await hook(['claude-code'], bashCall('rm -rf ~'));
    expect(first).toMatchObject({ code: 0, stdout: alone.stdout, stderr: '' });
    expect(JSON.parse(first.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(loadedTheGate(first)).toBe(true);
    // What the runtime-directory test counts: the daemon is there as soon as the first hook has exited.
    expect(daemonsStartedHere()).toHaveLength(1);

    await waitForDaemon();
    const forwarded = await hook(['claude-code'], bashCall('rm -rf ~'));
    expect(forwarded).toMatchObject({ code: 0, stdout: alone.stdout, stderr: '' });
    // The forwarded hook judged nothing itself: the gate was never loaded in its process.
    expect(loadedTheGate(forwarded)).toBe(false);

    const allowed = await hook(['claude-code', '--shadow'], bashCall('git status'));
    const allowedAlone = await hook(['claude-code', '--shadow'], bashCall('git status'), {
      ARBITER_GATE_DAEMON: 'off',
    });
    expect(allowed.stdout).toBe(allowedAlone.stdout);
    expect(loadedTheGate(allowed)).toBe(false);
  });

  it('keeps the CLI’s usage errors and exit codes when forwarding', async () => {
    await hook(['claude-code'], bashCall('ls'));
    await waitForDaemon();
    for (const args of [['claude-code', '--bogus'], ['nohost']]) {
      const forwarded = await hook(args, bashCall('ls'));
      const alone = await hook(args, bashCall('ls'), { ARBITER_GATE_DAEMON: 'off' });
      expect(loadedTheGate(forwarded)).toBe(false);
      expect({ code: forwarded.code, stdout: forwarded.stdout, stderr: forwarded.stderr }).toEqual({
        code: alone.code,
        stdout: alone.stdout,
        stderr: alone.stderr,
      });
      // Usage errors exit 2 (docs/user-guide.md); Claude Code blocks the call on a hook's exit 2.
      expect(forwarded.code).toBe(2);
    }
  });

  it('gives each environment its own daemon', async () => {
    await hook(['claude-code'], bashCall('ls'), { ARBITER_GATE_TASK: 'task one' });
    await waitForDaemon();
    const other = await hook(['claude-code'], bashCall('ls'), { ARBITER_GATE_TASK: 'task two' });
    expect(loadedTheGate(other)).toBe(true);
    await waitFor(() => (daemonPids().length === 2 ? true : undefined), 'a second daemon');
  });

  it('answers in its own process when a killed daemon left its socket behind, and starts a new one', async () => {
    await hook(['claude-code'], bashCall('ls'));
    const killed = await waitForDaemon();
    process.kill(killed, 'SIGKILL');
    await waitFor(() => {
      try {
        process.kill(killed, 0);
        return undefined;
      } catch {
        return true;
      }
    }, 'the daemon to die');
    expect(readdirSync(daemonDirectory()).some((name) => name.endsWith('.sock'))).toBe(true);

    const after = await hook(['claude-code'], bashCall('rm -rf ~'));
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(loadedTheGate(after)).toBe(true);
    const replacement = await waitFor(() => daemonPids().find((pid) => pid !== killed), 'a new daemon');
    expect(replacement).not.toBe(killed);
    expect(loadedTheGate(await hook(['claude-code'], bashCall('ls')))).toBe(false);
  });

  it('still answers, in its own process, from a working directory that no longer exists', async () => {
    const gone = join(directory, 'gone');
    mkdirSync(gone);
    const script = `cd '${gone}' && rmdir '${gone}' && exec '${process.execPath}' '${ARBITER_BIN}' gate hook claude-code`;
    const child = spawn('bash', ['-c', script], {
      env: { PATH: process.env.PATH, HOME: directory, XDG_RUNTIME_DIR: runtime },
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stdin.end(bashCall('rm -rf ~'));
    const [code] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    expect(code).toBe(0);
    expect(JSON.parse(stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('never uses a runtime directory that other users can enter', async () => {
    mkdirSync(daemonDirectory(), { mode: 0o777 });
    chmodSync(daemonDirectory(), 0o777);
    const run = await hook(['claude-code'], bashCall('rm -rf ~'));
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(daemonsStartedHere()).toEqual([]);
    expect(readdirSync(daemonDirectory())).toEqual([]);
  });

  it('steps down when its code changes on disk, so a rebuilt Arbiter is never answered by old code', async () => {
    await hook(['claude-code'], bashCall('ls'));
    const old = await waitForDaemon();
    const gateEntry = fileURLToPath(
      import.meta.resolve('@arbiter/tool-gate').replace('/src/index.ts', '/dist/index.js'),
    );
    const { atime, mtime } = statSync(gateEntry);
    try {
      utimesSync(gateEntry, atime, new Date(mtime.getTime() + 1_000));
      const run = await hook(['claude-code'], bashCall('ls'));
      expect(loadedTheGate(run)).toBe(true);
      await waitFor(() => daemonPids().find((pid) => pid !== old), 'a daemon with the new code');
    } finally {
      utimesSync(gateEntry, atime, mtime);
    }
  });

  it('exits after its idle timeout and removes its pid file and socket', async () => {
    mkdirSync(daemonDirectory(), { mode: 0o700 });
    const socket = join(daemonDirectory(), 'idle.sock');
    const pidFile = join(daemonDirectory(), 'idle.pid');
    const daemon = spawn(
      process.execPath,
      [ARBITER_BIN, 'gate', 'daemon', '--socket', socket, '--pid-file', pidFile, '--idle-timeout', '300'],
      { env: { PATH: process.env.PATH, HOME: directory }, stdio: 'ignore' },
    );
    const [code] = (await once(daemon, 'exit')) as [number | null, NodeJS.Signals | null];
    expect(code).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
    expect(existsSync(socket)).toBe(false);
  });

  it('refuses a malformed idle timeout', async () => {
    const daemon = spawn(
      process.execPath,
      [ARBITER_BIN, 'gate', 'daemon', '--socket', 'x.sock', '--idle-timeout', 'soon'],
      {
        env: { PATH: process.env.PATH },
      },
    );
    let stderr = '';
    daemon.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const [code] = (await once(daemon, 'exit')) as [number | null, NodeJS.Signals | null];
    expect(code).toBe(1);
    expect(stderr).toContain('--idle-timeout must be a whole number of milliseconds');
  });
});
