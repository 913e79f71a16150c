import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decisionRequestSchema, decisionResponseSchema } from '@arbiter/decision';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ARBITER_BIN, type CliRun, runArbiter } from './support/run-arbiter.js';

// Runs the built CLI (`npx tsc -b` first), as a user would. Each run starts a node process, which
// takes seconds when the machine is busy, so these tests get a longer timeout than the default.
vi.setConfig({ testTimeout: 90_000 });

function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliRun> {
  return runArbiter(args, { ...options, env: { HOME: workDir, ...options.env } });
}

let workDir: string;
let questionsFile: string;
let stateFile: string;
const GITHUB_TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}123456`;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'arbiter-cli-decision-'));
  questionsFile = join(workDir, 'questions.yaml');
  stateFile = join(workDir, 'state.txt');
  await writeFile(
    questionsFile,
    [
      'urgent: { type: noul, instructions: Does this need action today?, criteria: { "true": failing payouts, "false": can wait } }',
      'team: { type: choice, instructions: Which team?, criteria: { billing: payouts and refunds, technical: null } }',
      'severity: { type: score, instructions: How severe?, criteria: [cosmetic, annoying, payouts failing] }',
    ].join('\n'),
  );
  await writeFile(stateFile, `My payouts have been failing for 3 days. My token is ${GITHUB_TOKEN}\n`);
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

describe('arbiter keys', () => {
  it('create prints the key alone on stdout; list never shows it; revoke takes it away', async () => {
    const dataDir = join(workDir, 'keys');
    const created = await runCli(['keys', 'create', '--principal', 'ci', '--data-dir', dataDir]);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^arb_[A-Za-z0-9_-]{43}\n$/);
    const key = created.stdout.trim();

    const listed = await runCli(['keys', 'list', '--json', '--data-dir', dataDir]);
    expect(listed.stdout).not.toContain(key.slice(4, -4));
    const [record] = JSON.parse(listed.stdout) as Array<{
      id: string;
      principal: { name: string };
      revokedAt: null;
    }>;
    expect(record).toMatchObject({ principal: { name: 'ci' }, revokedAt: null });

    const revoked = await runCli(['keys', 'revoke', record!.id, '--data-dir', dataDir]);
    expect(revoked).toMatchObject({ code: 0, stdout: `revoked ${record!.id}\n` });
    const missing = await runCli(['keys', 'revoke', 'key_nothing', '--data-dir', dataDir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('arbiter keys revoke: no key with id key_nothing\n');
  });

  it('reads the data directory from ARBITER_DATA_DIR', async () => {
    const dataDir = join(workDir, 'from-env');
    await runCli(['keys', 'create'], { env: { ARBITER_DATA_DIR: dataDir } });
    const listed = await runCli(['keys', 'list', '--json', '--data-dir', dataDir]);
    expect(JSON.parse(listed.stdout)).toHaveLength(1);
  });
});

describe('arbiter decide', () => {
  it('answers in process with a readable table', async () => {
    const run = await runCli(['decide', '--state', stateFile, '--questions', questionsFile]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^question\s+type\s+answer\s+confidence\s+most probable\n/);
    expect(run.stdout).toMatch(/\nteam\s+choice\s+billing\s+0\.\d{3}\s+billing \d+\.\d%/);
    expect(run.stdout).toContain('model arbiter-1.0.0');
  });

  it('prints the whole result as JSON, state from stdin', async () => {
    const run = await runCli(['decide', '--state', '-', '--questions', questionsFile, '--json'], {
      input: '{"ticket": "refund my payouts"}',
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { skipped: boolean };
    expect(result.skipped).toBe(false);
    decisionResponseSchema.parse(result);
  });

  it('--dry-run prints the redacted request and sends nothing', async () => {
    let received = 0;
    const server: Server = createServer((_request, response) => {
      received += 1;
      response.writeHead(500).end();
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const run = await runCli([
        'decide',
        '--state',
        stateFile,
        '--questions',
        questionsFile,
        '--dry-run',
        '--url',
        url,
      ]);
      expect(run.code).toBe(0);
      const request = decisionRequestSchema.parse(JSON.parse(run.stdout));
      expect(request.state).not.toContain(GITHUB_TOKEN);
      expect(request.state).toContain('[REDACTED');
      expect(Object.keys(request.questions)).toEqual(['urgent', 'team', 'severity']);
      expect(received).toBe(0);
    } finally {
      server.close();
    }
  });

  it('reports usage errors with exit 2 and a skip with exit 1', async () => {
    const badQuestions = join(workDir, 'bad.yaml');
    await writeFile(badQuestions, 'q: { type: score, instructions: x, criteria: [one] }\n');
    // Independent runs in parallel: each CLI start costs seconds on a busy machine.
    const [missing, bad, model, unreachable] = await Promise.all([
      runCli(['decide', '--state', join(workDir, 'nope'), '--questions', questionsFile]),
      runCli(['decide', '--state', stateFile, '--questions', badQuestions]),
      runCli(['decide', '--state', stateFile, '--questions', questionsFile, '--model', 'gpt-9']),
      runCli(['decide', '--state', stateFile, '--questions', questionsFile, '--url', 'http://127.0.0.1:9']),
    ]);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toMatch(/^arbiter decide: --state: cannot read .*nope: ENOENT\n$/);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('q.criteria: a score needs at least 2 levels');
    expect(model.code).toBe(2);
    expect(model.stderr).toContain('available models: arbiter-1.0.0, arbiter-latest, jev-latest');
    // Which URL and why, not just `fetch failed`.
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^arbiter decide: skipped \(network\): http: POST http:\/\/127\.0\.0\.1:9\/v1\/decision failed: bad port \(gave up after \d+ attempts\)\n$/,
    );
  });
});

describe('arbiter redact', () => {
  it('removes secrets and leaves other text byte-identical', async () => {
    const text = `const total = items.reduce((sum, item) => sum + item.price, 0);\nexport GITHUB_TOKEN=${GITHUB_TOKEN}\n`;
    const run = await runCli(['redact'], { input: text });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(GITHUB_TOKEN);
    expect(
      run.stdout.startsWith(
        'const total = items.reduce((sum, item) => sum + item.price, 0);\nexport GITHUB_TOKEN=',
      ),
    ).toBe(true);
    const plain = 'Nothing secret here.\n\tJust prose, café, 42.\n';
    expect((await runCli(['redact'], { input: plain })).stdout).toBe(plain);
  });
});

describe('arbiter models and --help', () => {
  it('lists the embedded catalog', async () => {
    const run = await runCli(['models', '--json']);
    const { models } = JSON.parse(run.stdout) as { models: Array<{ name: string }> };
    expect(models.map((model) => model.name)).toEqual(['arbiter-1.0.0', 'arbiter-latest', 'jev-latest']);
  });

  it('explains every command', async () => {
    const commands = [['serve'], ['decide'], ['redact'], ['keys'], ['keys', 'create'], ['models']];
    const runs = await Promise.all(commands.map((command) => runCli([...command, '--help'])));
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Usage: arbiter /);
    }
  });
});

describe('arbiter serve', () => {
  function waitForLine(child: ChildProcessWithoutNullStreams, pattern: RegExp): Promise<RegExpMatchArray> {
    return new Promise((found, fail) => {
      let seen = '';
      const onData = (chunk: string) => {
        seen += chunk;
        const match = seen.match(pattern);
        if (match) {
          child.stdout.off('data', onData);
          found(match);
        }
      };
      child.stdout.setEncoding('utf8').on('data', onData);
      child.once('exit', (code) => fail(new Error(`serve exited with ${code} before printing ${pattern}`)));
    });
  }

  it('starts on a fresh data directory, prints the URL and a first key, and answers', async () => {
    const dataDir = join(workDir, 'serve');
    const child = spawn(
      process.execPath,
      [ARBITER_BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'],
      {
        env: { PATH: process.env.PATH, HOME: workDir },
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    try {
      const [, url] = await waitForLine(child, /Arbiter listening on (http:\/\/\S+)\n/);
      const key = stderr.match(/arb_[A-Za-z0-9_-]{43}/)?.[0];
      expect(key).toBeDefined();
      const response = await fetch(`${url}/v1/decision`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({
          state: 'refund',
          questions: { q: { type: 'choice', instructions: 'x', criteria: { refund: null, bug: null } } },
        }),
      });
      expect(response.status).toBe(200);
      expect(decisionResponseSchema.parse(await response.json()).answers.q).toMatchObject({
        choice: 'refund',
      });
    } finally {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('warns loudly without auth', async () => {
    const child = spawn(
      process.execPath,
      [ARBITER_BIN, 'serve', '--port', '0', '--no-auth', '--data-dir', join(workDir, 'noauth')],
      {
        env: { PATH: process.env.PATH, HOME: workDir },
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    try {
      const [, url] = await waitForLine(child, /Arbiter listening on (http:\/\/\S+)\n/);
      // stderr and stdout are separate pipes: the banner may arrive after the URL line.
      await vi.waitFor(() => expect(stderr).toContain('WARNING: authentication is OFF (--no-auth)'));
      expect(stderr).not.toMatch(/arb_/);
      expect((await fetch(`${url}/v1/models`)).status).toBe(200);
    } finally {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('refuses a bad configuration file with exit 2 naming the field', async () => {
    const config = join(workDir, 'bad-config.yaml');
    await writeFile(config, 'catalog:\n  aliases:\n    fast: nothing-1.0.0\n');
    const run = await runCli([
      'serve',
      '--port',
      '0',
      '--config',
      config,
      '--data-dir',
      join(workDir, 'cfg'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('catalog.aliases.fast');
  });
});
