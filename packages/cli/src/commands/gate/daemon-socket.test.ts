import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fnv1a64, gateDaemonAddress } from './daemon-socket.js';

let runtime: string;
afterEach(() => rmSync(runtime, { recursive: true, force: true }));

function address(cwd: string, environment: NodeJS.ProcessEnv) {
  return gateDaemonAddress('/opt/arbiter/cli', cwd, { XDG_RUNTIME_DIR: runtime, ...environment });
}

describe('gateDaemonAddress', () => {
  it('names one socket per working directory and relevant environment, in a private directory', () => {
    runtime = mkdtempSync(join(tmpdir(), 'arbiter-socket-'));
    const base = address('/work/a', { HOME: '/home/me', ARBITER_GATE_TASK: 'fix the bug' });
    expect(base?.socket).toMatch(/\/arbiter\/gate-[0-9a-f]{16}\.sock$/);
    expect(base?.pidFile).toBe(base?.socket.replace(/\.sock$/, '.pid'));
    expect(statSync(join(runtime, 'arbiter')).mode & 0o777).toBe(0o700);
    // Irrelevant variables do not split daemons; relevant ones and the directory do.
    expect(address('/work/a', { HOME: '/home/me', ARBITER_GATE_TASK: 'fix the bug', TERM: 'xterm' })).toEqual(
      base,
    );
    expect(address('/work/b', { HOME: '/home/me', ARBITER_GATE_TASK: 'fix the bug' })).not.toEqual(base);
    expect(address('/work/a', { HOME: '/home/me', ARBITER_GATE_TASK: 'other' })).not.toEqual(base);
    expect(address('/work/a', { HOME: '/home/you', ARBITER_GATE_TASK: 'fix the bug' })).not.toEqual(base);
  });

  it('keeps values such as API keys out of the socket name', () => {
    runtime = mkdtempSync(join(tmpdir(), 'arbiter-socket-'));
    const secret = 'arb_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
    expect(address('/work/a', { ARBITER_API_KEY: secret })?.socket).not.toContain(secret.slice(4, 12));
  });

  it('refuses a runtime directory that others can enter', () => {
    runtime = mkdtempSync(join(tmpdir(), 'arbiter-socket-'));
    mkdirSync(join(runtime, 'arbiter'));
    chmodSync(join(runtime, 'arbiter'), 0o755);
    expect(address('/work/a', {})).toBeNull();
  });

  it('refuses a socket path longer than Unix sockets allow', () => {
    runtime = mkdtempSync(join(tmpdir(), `arbiter-socket-${'x'.repeat(100)}`));
    expect(address('/work/a', {})).toBeNull();
  });
});

describe('fnv1a64', () => {
  it('matches the published FNV-1a 64-bit test vectors', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });
});
