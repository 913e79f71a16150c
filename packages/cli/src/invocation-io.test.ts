import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from './cli-run.js';
import { type InvocationIo, inputOf, invocationStdout, withInvocationIo } from './invocation-io.js';
import { createProgram } from './program.js';

/** An invocation whose streams are strings: what a test reads instead of spawning `arbiter`. */
function capturedInvocation(stdin = '', terminal = false) {
  const captured = { stdout: '', stderr: '' };
  const io: InvocationIo = {
    stdin: () => inputOf(stdin),
    writeStdout: (text) => {
      captured.stdout += text;
    },
    writeStderr: (text) => {
      captured.stderr += text;
    },
    isTerminal: () => terminal,
    ownsProcess: false,
  };
  return { io, captured };
}

async function runInProcess(argv: string[], stdin = '') {
  const { io, captured } = capturedInvocation(stdin);
  const exitCode = await withInvocationIo(io, () =>
    runCli(argv, { output: { writeOut: io.writeStdout, writeErr: io.writeStderr } }, createProgram),
  );
  return { exitCode, ...captured };
}

describe("a command's output", () => {
  const exitCodeBefore = process.exitCode;
  afterEach(() => {
    // Commands set the process's exit status; the test process keeps its own.
    process.exitCode = exitCodeBefore;
    vi.restoreAllMocks();
  });

  it("goes to the invocation's streams, never the process's", async () => {
    const stdout = vi.spyOn(process.stdout, 'write');
    const stderr = vi.spyOn(process.stderr, 'write');
    const result = await runInProcess(['redact'], 'key: sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789\n');
    expect(result.stdout).toMatch(/^key: \S+\n$/);
    expect(result.stdout).not.toContain('abcdefghijklmnopqrstuvwxyz0123456789');
    expect(result.stderr).toBe('');
    expect(stdout).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
  });

  it('prints a dry run of `decide` in process', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'arbiter-invocation-io-'));
    try {
      const questions = join(directory, 'questions.json');
      await writeFile(questions, JSON.stringify({ urgent: { type: 'noul', instructions: 'Is it urgent?' } }));
      const result = await runInProcess(
        ['decide', '--state', '-', '--questions', questions, '--dry-run'],
        'The build is on fire.',
      );
      expect(JSON.parse(result.stdout)).toMatchObject({
        state: 'The build is on fire.',
        questions: { urgent: { type: 'noul' } },
      });
      expect(result.stderr).toBe('');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('reports a usage error on the invocation’s standard error with exit status 2', async () => {
    const result = await runInProcess(['decide', '--state', '-', '--questions', 'unused.json'], '  \n');
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'arbiter decide: --state: standard input is empty; there is nothing to judge\n',
    );
    expect(process.exitCode).toBe(2);
  });

  it('tells renderers whether the invocation writes to a terminal', async () => {
    for (const terminal of [true, false]) {
      const { io, captured } = capturedInvocation('', terminal);
      const out = await withInvocationIo(io, async () => invocationStdout());
      out.write('drawn');
      expect(out.isTTY).toBe(terminal);
      expect(captured.stdout).toBe('drawn');
    }
  });
});

describe('the CLI source', () => {
  // Only the process's own stream wiring (`processIo`) and the hook forwarder, which runs before
  // any invocation exists, may touch the process's streams; every command writes through its
  // invocation, so it can be run in process by a test or by the gate daemon.
  const allowed = new Set(['invocation-io.ts', 'commands/gate/daemon-client.ts']);
  const direct =
    /process\.(stdout|stderr)\.write\(|process\.(stdin|stdout|stderr)\.isTTY|[(,]\s*process\.(stdout|stderr)\s*[,)]|console\.(log|error|warn|info)\(/;

  function productFiles(directory: string): string[] {
    return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) return productFiles(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
    });
  }

  it('writes to no process stream directly', () => {
    const root = import.meta.dirname;
    const offenders = productFiles(root)
      .map((path) => relative(root, path))
      .filter((path) => !allowed.has(path) && direct.test(readFileSync(join(root, path), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('would notice a direct write', () => {
    expect(direct.test('  process.stdout.write(`x`);')).toBe(true);
    expect(direct.test('new TerminalRenderer(process.stdout, process.stderr)')).toBe(true);
    expect(direct.test('if (process.stdin.isTTY) {')).toBe(true);
    expect(direct.test('invocationIo().writeStdout(`x`);')).toBe(false);
  });
});
