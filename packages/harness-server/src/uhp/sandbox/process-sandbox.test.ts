import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bubblewrapArguments, hostSystemView } from './bubblewrap-arguments.js';
import { ProcessSandbox, SandboxUnavailableError } from './process-sandbox.js';
import { DEFAULT_COMMAND_LIMITS } from './sandbox-config.js';
import { SandboxUsers } from './sandbox-users.js';

// These start the real bubblewrap (a test prerequisite: scripts/test-prerequisites.sh).
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-process-sandbox-'));
const workspace = () => fs.mkdtempSync(path.join(scratch, 'ws-'));
const signal = () => new AbortController().signal;
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('bubblewrapArguments', () => {
  const spec = {
    systemView: hostSystemView(),
    identity: { kind: 'drop-root', uid: 1_879_048_200, gid: 1_879_048_200, setpriv: '/usr/bin/setpriv' },
    prlimit: '/usr/bin/prlimit',
    workspace: '/data/uhp/sessions/s/workspace',
    argv: ['/bin/sh', '-c', 'true'],
    env: { PATH: '/usr/bin', HOME: '/data/uhp/sessions/s/workspace' },
    network: false,
    readOnlyPaths: [],
    writablePaths: [],
    limits: DEFAULT_COMMAND_LIMITS,
  } as const;

  it('starts from an empty root: the system read-only, /etc by name, the workspace the only writable bind', () => {
    const args = bubblewrapArguments(spec);
    const pairs = (flag: string) => args.flatMap((arg, index) => (arg === flag ? [args[index + 1]] : []));
    expect(pairs('--bind')).toEqual([spec.workspace]);
    expect(pairs('--ro-bind')).not.toContain('/');
    expect(pairs('--ro-bind').filter((p) => p?.startsWith('/etc/'))).not.toContain('/etc/shadow');
    expect(pairs('--ro-bind').some((p) => p === '/home' || p === '/root' || p === '/var')).toBe(false);
    for (const flag of [
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-net',
      '--new-session',
      '--die-with-parent',
      '--clearenv',
    ])
      expect(args).toContain(flag);
    expect(bubblewrapArguments({ ...spec, network: true })).not.toContain('--unshare-net');
  });

  it('drops root with setpriv and sets every limit as a hard rlimit before the program', () => {
    const args = bubblewrapArguments(spec);
    const program = args.slice(args.indexOf('--') + 1);
    expect(program.slice(0, 2)).toEqual(['/usr/bin/setpriv', '--reuid=1879048200']);
    expect(program).toContain('--bounding-set=-all');
    expect(program).toContain('--no-new-privs');
    const prlimit = program.slice(program.indexOf('/usr/bin/prlimit'));
    expect(prlimit).toEqual(
      expect.arrayContaining(['--cpu=60', '--nproc=128', '--core=0', `--as=${2048 * 1024 * 1024}`]),
    );
    expect(prlimit.slice(-3)).toEqual(['/bin/sh', '-c', 'true']);
  });
});

describe('SandboxUsers', () => {
  it('gives concurrently running workspaces different ids, and one workspace the same id', () => {
    const users = new SandboxUsers({ first: 5000, count: 2 });
    const a = users.lease('/w/a');
    expect(a?.alone).toBe(true);
    expect(users.lease('/w/a')).toEqual({ id: a?.id, alone: false });
    const b = users.lease('/w/b');
    expect(b?.id).not.toBe(a?.id);
    expect(users.lease('/w/c')).toBeNull();
    users.release(b!.id);
    expect(users.lease('/w/c')).toEqual({ id: b?.id, alone: true });
  });
});

describe('ProcessSandbox with the real bubblewrap', () => {
  let sandbox: ProcessSandbox;
  beforeAll(async () => {
    sandbox = await ProcessSandbox.open({
      commandLimits: { cpuSeconds: 1, fileSizeMiB: 1, tmpMiB: 1, memoryMiB: 256 },
    });
  });

  it('is in force here and says so in one line', () => {
    expect(sandbox.state.kind).toBe('bubblewrap');
    expect(sandbox.describe()).toMatch(/^Sandbox: bubblewrap \(.*bwrap\); .*limits per command: CPU 1 s/);
  });

  it('enforces the CPU, memory, file size and /tmp limits', async () => {
    const run = (command: string) =>
      sandbox.run(
        { argv: ['/bin/sh', '-c', command], workspace: workspace(), purpose: 'command' },
        { signal: signal(), timeoutMs: 20_000, outputCapBytes: 4096 },
      );
    const spin = await run('while :; do :; done');
    expect(spin.timedOut).toBe(false);
    expect(spin.exitCode).not.toBe(0);
    const big = await run('head -c 2097152 /dev/zero > big; echo status=$?; wc -c < big');
    expect(big.output).toMatch(/File size limit exceeded|status=1\d\d/);
    expect(big.output).toMatch(/^1048576$/m);
    const memory = await run('python3 -c "x = bytearray(512 * 1024 * 1024); print(len(x))"');
    expect(memory.output).toContain('MemoryError');
    expect(memory.output).not.toContain('536870912');
    const tmp = await run('head -c 700000 /dev/zero > /tmp/a; head -c 700000 /dev/zero > /tmp/b');
    expect(tmp.output).toMatch(/No space left on device/);
  });

  it('gives the workspace to the sandbox id without following links planted in it', async () => {
    const outside = fs.mkdtempSync(path.join(scratch, 'outside-'));
    fs.writeFileSync(path.join(outside, 'host-file'), 'host');
    const root = workspace();
    const run = (command: string) =>
      sandbox.run(
        { argv: ['/bin/sh', '-c', command], workspace: root, purpose: 'command' },
        { signal: signal(), timeoutMs: 20_000, outputCapBytes: 4096 },
      );
    await run(`ln -s ${outside}/host-file file-link; ln -s ${outside} dir-link; mkdir d; echo x > d/f`);
    fs.writeFileSync(path.join(root, 'from-server.txt'), 'written as root');
    // The next program's hand-over re-owns the links and the server's file, nothing beyond.
    const second = await run('echo appended >> from-server.txt && cat from-server.txt');
    expect(second.output).toBe('written as rootappended\n');
    expect(fs.statSync(path.join(outside, 'host-file')).uid).toBe(process.getuid?.());
    expect(fs.statSync(outside).uid).toBe(process.getuid?.());
  });

  it('kills the whole tree on abort and on killAll', async () => {
    const controller = new AbortController();
    const pending = sandbox.run(
      { argv: ['/bin/sh', '-c', 'sleep 60 & sleep 61'], workspace: workspace(), purpose: 'command' },
      { signal: controller.signal, timeoutMs: 60_000, outputCapBytes: 100 },
    );
    setTimeout(() => controller.abort(), 100);
    expect((await pending).exitCode).toBeNull();
    const started = sandbox.spawn({ argv: ['/bin/sleep', '62'], workspace: workspace(), purpose: 'agent' });
    const closed = new Promise((resolve) => started.child.once('close', resolve));
    sandbox.killAll();
    await closed;
    expect(sandbox.running).toBe(0);
  });
});

describe('ProcessSandbox of a server that is not root', () => {
  it('runs in a user namespace: the server id, its own process count, no nested namespaces', () => {
    // The sandbox as an unprivileged server opens it: this test process is root, so the probe runs
    // as nobody through setpriv.
    const probe = path.resolve(import.meta.dirname, '../../../test/fixtures/unprivileged-sandbox-run.ts');
    // More background processes than the process limit allows, started one after another: the
    // limit is reached whatever the machine's load (a timed fork bomb may not get there in time).
    const command =
      'id -u; echo kept > f && cat f; unshare -U true || echo nested-refused; for i in $(seq 1 600); do sleep 30 & done';
    const ran = spawnSync(
      '/usr/bin/setpriv',
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        process.execPath,
        '--conditions=arbiter-source',
        '--import',
        'tsx',
        probe,
        command,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    const result = JSON.parse(ran.stdout);
    expect(result.state).toMatchObject({ kind: 'bubblewrap', identity: 'user-namespace' });
    expect(result.output).toMatch(/^65534\nkept\n/);
    expect(result.output).toMatch(/Cannot fork/);
    expect(result.output).toContain('nested-refused');
  });
});

describe('ProcessSandbox when no sandbox can start', () => {
  it('refuses every program when bwrap is missing, and says so loudly', async () => {
    const sandbox = await ProcessSandbox.open({ bwrap: '/nonexistent/bwrap' });
    expect(sandbox.state).toEqual({
      kind: 'unavailable',
      reason: 'bubblewrap (/nonexistent/bwrap) is not installed',
    });
    expect(sandbox.describe()).toMatch(/^WARNING: no sandbox can start here .*refused/);
    expect(() => sandbox.spawn({ argv: ['/bin/true'], workspace: workspace(), purpose: 'command' })).toThrow(
      SandboxUnavailableError,
    );
  });

  it('refuses when bwrap cannot make namespaces (as where user namespaces are disabled), with its words', async () => {
    const fake = path.join(scratch, 'bwrap-without-userns');
    fs.writeFileSync(fake, '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const sandbox = await ProcessSandbox.open({ bwrap: fake });
    expect(sandbox.state).toEqual({
      kind: 'unavailable',
      reason: 'bubblewrap failed: No permissions to create new namespace',
    });
  });

  it('runs unisolated only when the operator says off-unsafe, and then warns', async () => {
    const sandbox = await ProcessSandbox.open({ mode: 'off-unsafe' });
    expect(sandbox.describe()).toMatch(/^WARNING: sandbox OFF \(sandbox\.mode: off-unsafe\)/);
    const result = await sandbox.run(
      { argv: ['/bin/sh', '-c', 'echo $HOME'], workspace: scratch, purpose: 'command' },
      { signal: signal(), timeoutMs: 5000, outputCapBytes: 100 },
    );
    expect(result.output).toBe(`${scratch}\n`);
  });
});
