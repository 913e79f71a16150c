import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bubblewrapArguments, hostSystemView } from './bubblewrap-arguments.js';
import { ProcessSandbox, SandboxUnavailableError } from './process-sandbox.js';
import { DEFAULT_COMMAND_LIMITS } from './sandbox-config.js';
import { limitsMismatch } from './sandbox-limits.js';
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
    limitSetter: { kind: 'shell', shell: '/bin/sh' },
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

  it('mounts a staged /etc in one read-only bind, unless another mount lies under /etc', () => {
    const staged = bubblewrapArguments({ ...spec, stagedEtc: '/tmp/arbiter-sandbox-etc-x/1' });
    const pairs = (args: string[], flag: string) =>
      args.flatMap((arg, index) => (arg === flag ? [[args[index + 1], args[index + 2]]] : []));
    expect(pairs(staged, '--ro-bind')).toContainEqual(['/tmp/arbiter-sandbox-etc-x/1', '/etc']);
    expect(pairs(staged, '--ro-bind').filter(([, to]) => to?.startsWith('/etc/'))).toEqual([]);
    expect(staged).not.toContain('/etc/passwd');

    const underEtc = bubblewrapArguments({
      ...spec,
      stagedEtc: '/tmp/arbiter-sandbox-etc-x/1',
      readOnlyPaths: ['/etc/agent'],
    });
    expect(underEtc).not.toContain('/tmp/arbiter-sandbox-etc-x/1');
    expect(pairs(underEtc, '--ro-bind')).toContainEqual(['/etc/passwd', '/etc/passwd']);
  });

  it('drops root with setpriv, then the shell command itself sets every limit before its script', () => {
    const args = bubblewrapArguments(spec);
    const program = args.slice(args.indexOf('--') + 1);
    expect(program.slice(0, 2)).toEqual(['/usr/bin/setpriv', '--reuid=1879048200']);
    expect(program).toContain('--clear-groups');
    expect(program).toContain('--bounding-set=-all');
    expect(program).toContain('--no-new-privs');
    const shell = program.slice(program.indexOf('--') + 1);
    expect(shell).toHaveLength(3);
    expect(shell.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(shell[2]).toMatch(/^ulimit -t 60 && ulimit -v 2097152 && .*ulimit -c 0 \|\| exit 126; true$/);
  });

  it('with prlimit as the fallback, prlimit sets every limit and starts the program', () => {
    const args = bubblewrapArguments({
      ...spec,
      limitSetter: { kind: 'prlimit', prlimit: '/usr/bin/prlimit' },
    });
    const prlimit = args.slice(args.indexOf('/usr/bin/prlimit'));
    expect(prlimit).toEqual(
      expect.arrayContaining(['--cpu=60', '--nproc=128', '--core=0', `--as=${2048 * 1024 * 1024}`]),
    );
    expect(prlimit.slice(-4)).toEqual(['--', '/bin/sh', '-c', 'true']);
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
  const limits = { cpuSeconds: 1, fileSizeMiB: 1, tmpMiB: 1, memoryMiB: 256 };
  beforeAll(async () => {
    sandbox = await ProcessSandbox.open({ commandLimits: limits });
  });

  it('is in force here and says so in one line', () => {
    expect(sandbox.state).toMatchObject({ kind: 'bubblewrap', limitSetter: 'shell' });
    expect(sandbox.describe()).toMatch(
      /^Sandbox: bubblewrap \(.*bwrap\); .*limits per command: CPU 1 s.* \(set by the sandbox's \/bin\/sh \(ulimit\)\); below the server: nice 10, .*\.$/,
    );
  });

  // The program tries to undo what its start set up (its limits, its id, its groups, capabilities),
  // then prints what it runs with: as a shell command (limits set by that shell) and as another
  // program (limits set by the shell bwrap starts first, which then execs it).
  const python = [
    'import os, resource as r',
    'for name in ("CPU", "AS", "NPROC", "FSIZE", "NOFILE", "CORE"):',
    '    limit = getattr(r, "RLIMIT_" + name)',
    '    for wanted in ((r.RLIM_INFINITY, r.RLIM_INFINITY), (r.getrlimit(limit)[1], r.getrlimit(limit)[1] + 1)):',
    '        try: r.setrlimit(limit, wanted); print(name, "raised")',
    '        except (ValueError, OSError): pass',
    'for attempt, call in (("groups set", lambda: os.setgroups([0])), ("root again", lambda: os.setuid(0))):',
    '        try: call(); print(attempt)',
    '        except OSError: pass',
    'print(open("/proc/self/limits").read() + open("/proc/self/status").read())',
  ].join('\n');
  const attacks = {
    'shell command': [
      '/bin/sh',
      '-c',
      'ulimit -t 100; ulimit -Ht unlimited; ulimit -n 100000; ulimit -p 100000; cat /proc/self/limits /proc/self/status',
    ],
    program: ['/usr/bin/python3', '-c', python],
  };
  for (const [kind, argv] of Object.entries(attacks))
    it(`keeps every hard limit, the id and the empty groups when a ${kind} tries to undo them`, async () => {
      const result = await sandbox.run(
        { argv, workspace: workspace(), purpose: 'command' },
        { signal: signal(), timeoutMs: 20_000, outputCapBytes: 16_384 },
      );
      expect(result.output).not.toMatch(/raised|groups set|root again/);
      expect(limitsMismatch(result.output, { ...DEFAULT_COMMAND_LIMITS, ...limits })).toBeNull();
      const status = (field: string) => result.output.match(new RegExp(`^${field}:(.*)$`, 'm'))?.[1]?.trim();
      const [uid] = status('Uid')?.split(/\s+/) ?? [];
      expect(Number(uid)).toBeGreaterThanOrEqual(1_879_048_192);
      expect(Number(uid)).not.toBe(process.getuid?.());
      expect(status('Uid')?.split(/\s+/)).toEqual([uid, uid, uid, uid]);
      expect(status('Gid')?.split(/\s+/)).toEqual([uid, uid, uid, uid]);
      expect(status('Groups')).toBe('');
      expect(status('CapEff')).toBe('0000000000000000');
      expect(status('CapBnd')).toBe('0000000000000000');
      expect(status('NoNewPrivs')).toBe('1');
    });

  it('runs a shell command as /bin/sh would without the limits line: exit codes, line numbers, errors', async () => {
    const scripts = [
      '',
      'cat <<EOF\nhello\nEOF\nexit 3',
      'echo a; (',
      ';',
      '# a comment',
      'echo "$0" "$#"',
      'foo\nbar',
    ];
    for (const script of scripts) {
      const direct = spawnSync('/bin/sh', ['-c', script], { encoding: 'utf8', cwd: scratch });
      const sandboxed = await sandbox.run(
        { argv: ['/bin/sh', '-c', script], workspace: workspace(), purpose: 'command' },
        { signal: signal(), timeoutMs: 20_000, outputCapBytes: 4096 },
      );
      expect({ script, exitCode: sandboxed.exitCode, output: sandboxed.output }).toEqual({
        script,
        exitCode: direct.status,
        output: direct.stdout + direct.stderr,
      });
    }
  });

  it('falls back to prlimit with the same limits, said at start', async () => {
    const withPrlimit = await ProcessSandbox.open({ commandLimits: limits }, { limitSetters: ['prlimit'] });
    expect(withPrlimit.state).toMatchObject({ kind: 'bubblewrap', limitSetter: 'prlimit' });
    expect(withPrlimit.describe()).toMatch(/\(set by prlimit \(util-linux\)\); below the server: .*\.$/);
    const result = await withPrlimit.run(
      {
        argv: ['/bin/sh', '-c', 'ulimit -Ht unlimited; cat /proc/self/limits'],
        workspace: workspace(),
        purpose: 'command',
      },
      { signal: signal(), timeoutMs: 20_000, outputCapBytes: 16_384 },
    );
    expect(limitsMismatch(result.output, { ...DEFAULT_COMMAND_LIMITS, ...limits })).toBeNull();
  });

  it('shows the allow-listed /etc, staged in one mount, and nothing else of it', async () => {
    const run = (etc: 'staged' | 'per-entry', command: string) =>
      ProcessSandbox.open({ etc }).then((opened) =>
        opened.run(
          { argv: ['/bin/sh', '-c', command], workspace: workspace(), purpose: 'command' },
          { signal: signal(), timeoutMs: 20_000, outputCapBytes: 65_536 },
        ),
      );
    const listing = 'ls -A /etc | sort; ls -A /etc/ssl/certs | wc -l; grep -c " /etc" /proc/self/mountinfo';
    const staged = await run('staged', listing);
    const perEntry = await run('per-entry', listing);
    expect(staged.exitCode).toBe(0);
    const lines = staged.output.trim().split('\n');
    // The same names and the same certificates either way; one mount for /etc when staged.
    expect(lines.slice(0, -1)).toEqual(perEntry.output.trim().split('\n').slice(0, -1));
    expect(lines.at(-1)).toBe('1');
    expect(Number(perEntry.output.trim().split('\n').at(-1))).toBeGreaterThan(1);
    expect(lines).toContain('passwd');
    for (const secret of ['shadow', 'gshadow', 'ssh', 'hostname', 'environment', 'sudoers'])
      expect(lines).not.toContain(secret);
    const reads = await run(
      'staged',
      'grep -c "^root:" /etc/passwd; test -w /etc/passwd && echo writable; touch /etc/x 2>&1; cat /etc/shadow 2>&1',
    );
    expect(reads.output).toMatch(/^1$/m);
    expect(reads.output).not.toContain('writable');
    expect(reads.output).toMatch(/touch: cannot touch '\/etc\/x': (Read-only file system|Permission denied)/);
    expect(reads.output).toMatch(/cat: \/etc\/shadow: No such file or directory/);
  });

  it('shows nothing of a root-only directory around the workspace (the data directory)', async () => {
    const dataDir = fs.mkdtempSync(path.join(scratch, 'data-'));
    fs.chmodSync(dataDir, 0o700);
    fs.writeFileSync(path.join(dataDir, 'arbiter.db'), 'secret-in-the-database');
    const root = path.join(dataDir, 'sessions', 's1', 'workspace');
    fs.mkdirSync(root, { recursive: true, mode: 0o700 });
    const result = await sandbox.run(
      {
        argv: [
          '/bin/sh',
          '-c',
          `ls -a ${dataDir} ${dataDir}/sessions; cat ${dataDir}/arbiter.db ../../../arbiter.db`,
        ],
        workspace: root,
        purpose: 'command',
      },
      { signal: signal(), timeoutMs: 20_000, outputCapBytes: 4096 },
    );
    expect(result.output).not.toContain('secret-in-the-database');
    expect(result.output).not.toMatch(/^arbiter\.db$/m);
    expect(result.output).toMatch(/arbiter\.db: No such file or directory/);
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

  it('starts every program below the server (nice 10, lowest best-effort I/O); the nice value cannot be raised back', async () => {
    expect(sandbox.priority).toEqual(expect.objectContaining({ nice: 10, io: 'lowest' }));
    expect(sandbox.describe()).toMatch(/below the server: nice 10, I\/O best-effort 7\.$/);
    // Field 19 of /proc/<pid>/stat is the nice value; the program then tries to raise both back: the
    // nice value holds, and of the I/O classes the realtime one is refused (best-effort levels are
    // any process's own to choose, so the I/O level is a default, not a bound: docs/security.md).
    const result = await sandbox.run(
      {
        argv: [
          '/bin/sh',
          '-c',
          'cut -d" " -f19 /proc/self/stat; ionice; renice -n 0 -p $$ >/dev/null 2>&1 || echo renice-refused; ionice -c1 -p $$ 2>/dev/null || echo realtime-refused; cut -d" " -f19 /proc/self/stat',
        ],
        workspace: workspace(),
        purpose: 'command',
      },
      { signal: signal(), timeoutMs: 20_000, outputCapBytes: 4096 },
    );
    expect(result.output.trim().split('\n')).toEqual([
      '10',
      'best-effort: prio 7',
      'renice-refused',
      'realtime-refused',
      '10',
    ]);
    const unlowered = await ProcessSandbox.open({
      commandLimits: limits,
      priority: { nice: 0, io: 'unchanged' },
    });
    expect(unlowered.priority.prefix).toEqual([]);
    const same = await unlowered.run(
      {
        argv: ['/bin/sh', '-c', 'cut -d" " -f19 /proc/self/stat'],
        workspace: workspace(),
        purpose: 'command',
      },
      { signal: signal(), timeoutMs: 20_000, outputCapBytes: 4096 },
    );
    expect(same.output.trim()).toBe(String(os.getPriority()));
  });

  it('kills the whole tree on abort and on killAll', async () => {
    const controller = new AbortController();
    const pending = sandbox.run(
      { argv: ['/bin/sh', '-c', 'sleep 60 & sleep 61'], workspace: workspace(), purpose: 'command' },
      { signal: controller.signal, timeoutMs: 60_000, outputCapBytes: 100 },
    );
    setTimeout(() => controller.abort(), 100);
    expect((await pending).exitCode).toBeNull();
    const started = await sandbox.spawn({
      argv: ['/bin/sleep', '62'],
      workspace: workspace(),
      purpose: 'agent',
    });
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
    await expect(
      sandbox.spawn({ argv: ['/bin/true'], workspace: workspace(), purpose: 'command' }),
    ).rejects.toThrow(SandboxUnavailableError);
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
