import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The launcher of this very CLI (`bin/arbiter.js` of the installed `@arbiter/cli`), resolved through
 * links: a host runs hook commands with its own `PATH`, which may hold no `arbiter` at all.
 */
export function installedCliScript(): string {
  const script = fileURLToPath(new URL('../../../bin/arbiter.js', import.meta.url));
  if (!existsSync(script)) {
    throw new Error(`cannot find the arbiter launcher at ${script}; reinstall the CLI (see the README)`);
  }
  return realpathSync(script);
}

/** POSIX shell quoting: hosts run hook commands through `sh -c`. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** `<node> <this CLI's launcher> <args…>` with absolute paths, quoted for the shell. */
export function resolvedCliCommand(args: readonly string[]): string {
  return [process.execPath, installedCliScript(), ...args].map(shellQuote).join(' ');
}

export interface HookProbeResult {
  readonly ok: boolean;
  /** What went wrong, for the message that refuses the command. */
  readonly problem: string;
}

/** Most a probe run may take: a cold hook loads the gate and the shell parser once. */
const PROBE_TIMEOUT_MS = 30_000;

/**
 * Runs a hook command once, as the host would (`sh -c`, the hook JSON on stdin), with a harmless
 * call, and checks that it ran: exit status 0 and either no output or one JSON document. The run
 * keeps to its own process (no gate daemon is started for it).
 */
export function probeHookCommand(command: string, input: string, cwd: string): Promise<HookProbeResult> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], {
      cwd,
      // A trial run is no tool call: no daemon for it, and nothing reported to a team server.
      env: { ...process.env, ARBITER_GATE_DAEMON: 'off', ARBITER_GATE_REPORT: 'off' },
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: PROBE_TIMEOUT_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', (error) => resolve({ ok: false, problem: error.message }));
    child.on('close', (code, signal) => {
      const said = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 400);
      if (code !== 0) {
        const how = signal ? `was stopped by ${signal}` : `exited with status ${code}`;
        const hint = code === 127 ? ' (command not found)' : '';
        resolve({ ok: false, problem: `it ${how}${hint}${said ? `: ${said}` : ''}` });
        return;
      }
      const text = stdout.trim();
      if (text !== '') {
        try {
          JSON.parse(text);
        } catch {
          resolve({ ok: false, problem: `its output is not the host's JSON: ${text.slice(0, 200)}` });
          return;
        }
      }
      resolve({ ok: true, problem: '' });
    });
    child.stdin.on('error', () => {
      // A command that exits without reading its input is judged by its exit status above.
    });
    child.stdin.end(input);
  });
}
