import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@arbiter/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProgram } from '../src/program.js';
import { ARBITER_BIN, type CliRun, runArbiter } from './support/run-arbiter.js';

// What a newcomer following the README ran into, each run as a user runs it: the built CLI in a
// real subprocess (`npx tsc -b` first), real servers on loopback.
vi.setConfig({ testTimeout: 90_000 });

let workDir: string;
let questionsFile: string;

function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliRun> {
  return runArbiter(args, { ...options, env: { HOME: workDir, ...options.env } });
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'arbiter-newcomer-'));
  questionsFile = join(workDir, 'questions.yaml');
  await writeFile(questionsFile, 'refund: { type: noul, instructions: Is a refund requested? }\n');
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

describe('usage errors and help', () => {
  it('exits 2 for what commander refuses, as the user guide says', async () => {
    const runs = await Promise.all([
      runCli(['--no-such-flag']),
      runCli(['no-such-command']),
      runCli(['decide', '--questions', questionsFile]),
      runCli(['keys']),
      runCli(['serve', '--port', 'eighty']),
    ]);
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
    }
    expect(runs[0]?.stderr).toContain("unknown option '--no-such-flag'");
    expect(runs[2]?.stderr).toContain("required option '--state <file|->' not specified");
  });

  it('prints the help on stdout and succeeds for a bare `arbiter` and for --help', async () => {
    const [bare, help] = await Promise.all([runCli([]), runCli(['--help'])]);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toMatch(/^Usage: arbiter /);
    expect(bare.stdout).toBe(help.stdout);
    expect(help.code).toBe(0);
  });
});

describe('arbiter decide', () => {
  let open: RunningServer;
  let guarded: RunningServer;
  beforeAll(async () => {
    [open, guarded] = await Promise.all([
      startServer({ port: 0, dataDir: join(workDir, 'open'), auth: false, harness: false }),
      startServer({ port: 0, dataDir: join(workDir, 'guarded'), harness: false }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([open.close(), guarded.close()]);
  });

  it('refuses an empty state instead of answering it', async () => {
    const [stdin, file] = await Promise.all([
      runCli(['decide', '--state', '-', '--questions', questionsFile], { input: '' }),
      writeFile(join(workDir, 'blank.txt'), ' \n\t\n').then(() =>
        runCli(['decide', '--state', join(workDir, 'blank.txt'), '--questions', questionsFile]),
      ),
    ]);
    expect(stdin).toMatchObject({ code: 2, stdout: '' });
    expect(stdin.stderr).toBe(
      'arbiter decide: --state: standard input is empty; there is nothing to judge\n',
    );
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('blank.txt is empty');
  });

  it('asks a server without auth with no key, and names the variable when a server wants one', async () => {
    const [answered, refused] = await Promise.all([
      runCli(['decide', '--state', '-', '--questions', questionsFile, '--url', open.url, '--json'], {
        input: 'please refund me',
      }),
      runCli(['decide', '--state', '-', '--questions', questionsFile, '--url', guarded.url], {
        input: 'please refund me',
      }),
    ]);
    expect(answered.code, answered.stderr).toBe(0);
    expect(JSON.parse(answered.stdout)).toMatchObject({ skipped: false, model: 'arbiter-1.0.0' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `arbiter decide: skipped (missing_key): http: no API key: ${guarded.url} requires one; set ARBITER_API_KEY\n`,
    );
    expect(refused.stderr).not.toMatch(/apiKey/);
  });

  it('blames an invalid URL on the flag or on ARBITER_BASE_URL, whichever gave it', async () => {
    const [flag, environment] = await Promise.all([
      runCli(['decide', '--state', '-', '--questions', questionsFile, '--url', 'localhost:7411'], {
        input: 'x',
      }),
      runCli(['decide', '--state', '-', '--questions', questionsFile], {
        input: 'x',
        env: { ARBITER_BASE_URL: 'not a url' },
      }),
    ]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe('arbiter decide: --url: "localhost:7411" must be an http or https URL\n');
    expect(environment.code).toBe(2);
    expect(environment.stderr).toBe(
      'arbiter decide: ARBITER_BASE_URL: "not a url" is not a valid URL (for example http://127.0.0.1:7411)\n',
    );
  });

  it('reports a YAML mistake by line and column, without the parser’s code frame', async () => {
    const broken = join(workDir, 'broken.yaml');
    await writeFile(broken, 'q: {type: noul\n  bad: [\n');
    const run = await runCli(['decide', '--state', '-', '--questions', broken], { input: 'x' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^arbiter decide: --questions: .*broken\.yaml is neither JSON nor YAML: line \d+, column \d+: [^\n]+\n$/,
    );
  });
});

describe('arbiter keys', () => {
  it('refuses a data directory that does not exist or is a file, and creates nothing', async () => {
    const missing = join(workDir, 'does', 'not', 'exist');
    const aFile = join(workDir, 'a-file');
    await writeFile(aFile, 'not a directory');
    const [list, revoke, fileList, fileCreate] = await Promise.all([
      runCli(['keys', 'list', '--data-dir', missing]),
      runCli(['keys', 'revoke', 'key_x', '--data-dir', missing]),
      runCli(['keys', 'list', '--data-dir', aFile]),
      runCli(['keys', 'create', '--data-dir', aFile]),
    ]);
    expect(list.code).toBe(2);
    expect(list.stderr).toBe(
      `arbiter keys list: there is no Arbiter data directory at ${missing} (no arbiter.db); \`arbiter keys create\` or \`arbiter serve\` makes one\n`,
    );
    expect(revoke.code).toBe(2);
    await expect(import('node:fs/promises').then((fs) => fs.stat(missing))).rejects.toThrow(/ENOENT/);
    for (const run of [fileList, fileCreate]) {
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`the data directory ${aFile} is not a directory`);
      expect(run.stderr).not.toContain('EEXIST');
    }
  });
});

describe('arbiter redact', () => {
  it('labels a password as a password, not as an Azure connection string', async () => {
    const run = await runCli(['redact'], { input: 'db password=hunter2 ok\n' });
    expect(run.stdout).toBe('db password=[REDACTED:connection-string-password] ok\n');
  });
});

describe('arbiter grade --revise-with', () => {
  it('says how to name a UHP server when none is connected', async () => {
    const rubric = join(workDir, 'rubric.yaml');
    await writeFile(
      rubric,
      'name: r\nversion: 1.0.0\ncriteria:\n  - id: a\n    type: noul\n    statement: it works\n    pass_probability: 0.5\n',
    );
    const run = await runCli(['grade', '--rubric', rubric, '--revise-with', 'resp_1'], {
      env: { ARBITER_CONFIG_DIR: join(workDir, 'no-uhp-config') },
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      'arbiter grade: --revise-with needs a UHP server, and none is connected: pass --uhp-url <url>, or run `arbiter uhp connect <url>` first\n',
    );
  });
});

describe('arbiter serve for a person at a terminal', () => {
  function serve(args: string[]): {
    child: ChildProcessWithoutNullStreams;
    out: () => string;
    err: () => string;
  } {
    const child = spawn(process.execPath, [ARBITER_BIN, 'serve', ...args], {
      env: { PATH: process.env.PATH, HOME: workDir },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    return { child, out: () => stdout, err: () => stderr };
  }

  async function stop(child: ChildProcessWithoutNullStreams) {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }

  it('prints a banner, one readable line per request, and serves a home page with links', async () => {
    const server = serve(['--port', '0', '--no-auth', '--data-dir', join(workDir, 'banner')]);
    try {
      const url = await vi.waitFor(() => {
        const match = server.out().match(/Arbiter listening on (http:\/\/\S+)\n/);
        if (!match?.[1]) throw new Error('not listening yet');
        return match[1];
      }, 60_000);
      const home = await fetch(`${url}/`);
      expect(home.status).toBe(200);
      expect(home.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await home.text();
      for (const link of [
        'href="/docs/"',
        'href="/console/"',
        'href="/api/harness/v1/uhp"',
        'href="/openapi.json"',
        'docs/user-guide.md',
      ]) {
        expect(html).toContain(link);
      }
      expect((await fetch(`${url}/api/harness/v1/uhp`)).status).toBe(200);
      // The console, built by the repository's build, served by the real `arbiter serve`.
      const consolePage = await fetch(`${url}/console/`);
      expect(consolePage.status).toBe(200);
      expect(consolePage.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await consolePage.text()).toContain('<div id="app"></div>');
      await vi.waitFor(() => expect(server.out()).toMatch(/^\d\d:\d\d:\d\d GET \/ 200 \d+\.\d ms$/m));
      expect(server.out()).not.toMatch(/^\{/m);
      await vi.waitFor(() => expect(server.err()).toContain(`  API reference   ${url}/docs`));
      expect(server.err()).toContain(`  UHP discovery   ${url}/api/harness/v1/uhp`);
      expect(server.err()).toContain(`  Console         ${url}/console/`);
      expect(server.err()).toContain('  Authentication  OFF (--no-auth)');
      expect(server.err()).toContain(`  Storage         SQLite ${join(workDir, 'banner', 'arbiter.db')}`);
      // The default quotas and the memory bound they imply with the default command limits.
      expect(server.err()).toContain(
        "  Per principal   16 tasks at once, 10 GiB on disk, 100,000 files, commands' memory at most 16 × 262144 MiB = 4096 GiB of address space (rlimits; no memory cgroup)",
      );
      expect(server.err()).toMatch(
        /^ {2}Node id {9}node_[0-9a-f]{12} \(random per start; cluster\.nodeId in the configuration fixes it\)$/m,
      );
    } finally {
      await stop(server.child);
    }
  });

  it('writes JSON lines with --log-format json', async () => {
    const server = serve([
      '--port',
      '0',
      '--no-auth',
      '--log-format',
      'json',
      '--data-dir',
      join(workDir, 'json'),
    ]);
    try {
      const url = await vi.waitFor(() => {
        const match = server.out().match(/Arbiter listening on (http:\/\/\S+)\n/);
        if (!match?.[1]) throw new Error('not listening yet');
        return match[1];
      }, 60_000);
      await fetch(`${url}/health`);
      await vi.waitFor(() => expect(server.out()).toContain('"msg":"request completed"'));
      const lines = server
        .out()
        .split('\n')
        .filter((line) => line.startsWith('{'));
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    } finally {
      await stop(server.child);
    }
  });

  it('suggests --port when the port is taken', async () => {
    const blocker = createServer();
    blocker.listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const { port } = blocker.address() as { port: number };
    try {
      const run = await runCli(['serve', '--port', String(port), '--data-dir', join(workDir, 'busy')]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`127.0.0.1:${port} is already in use`);
      expect(run.stderr).toContain('--port <n>, or --port 0 for a free one');
    } finally {
      blocker.close();
    }
  });
});

describe('what the README and the messages name', () => {
  it('lists every command of the program in the README command table', async () => {
    const readme = await readFile(join(import.meta.dirname, '../../../README.md'), 'utf8');
    const rows = readme.split('\n').filter((line) => line.startsWith('| `arbiter '));
    const listed = new Set(
      rows.flatMap((row) => [...row.matchAll(/`arbiter ([a-z]+)/g)].map((match) => match[1])),
    );
    const commands = createProgram().commands.map((command) => command.name());
    expect(commands).toContain('billing');
    for (const command of commands) expect(listed, `README lacks arbiter ${command}`).toContain(command);
  });

  it('says which UHP server could not be reached, and why', async () => {
    const run = await runCli(['uhp', 'connect', 'http://127.0.0.1:9'], {
      env: { ARBITER_CONFIG_DIR: join(workDir, 'uhp-config') },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'arbiter: Could not reach the UHP server at http://127.0.0.1:9 (GET /v1/uhp): bad port.\n',
    );
  });
});
