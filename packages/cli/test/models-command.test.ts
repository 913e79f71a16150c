import { spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeHub, startFakeHub } from '../../engine/test/fake-hub.js';
import { ARBITER_BIN, runArbiter } from './support/run-arbiter.js';

// The built CLI as a user runs it, against a local server that answers like the Hugging Face Hub
// (HF_ENDPOINT) and serving the repository's tiny random-weight NLI fixture. Nothing downloads.
vi.setConfig({ testTimeout: 90_000 });

const FIXTURE = fileURLToPath(new URL('../../engine/test/fixtures/tiny-nli', import.meta.url));
const XSMALL = { repo: 'Xenova/nli-deberta-v3-xsmall', commit: '4ce66096a56eb536b4b9e437f27ef42c24aeae51' };
const fixtureFile = (name: string) => ({ content: readFileSync(join(FIXTURE, ...name.split('/'))) });

let hub: FakeHub;
let workDir: string;
let modelsDir: string;
const env = () => ({ HOME: workDir, HF_ENDPOINT: hub.endpoint, ARBITER_MODELS_DIR: modelsDir });

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'arbiter-cli-models-'));
  modelsDir = join(workDir, 'models');
  hub = await startFakeHub({
    [XSMALL.repo]: {
      commit: XSMALL.commit,
      files: {
        'config.json': fixtureFile('config.json'),
        'tokenizer.json': fixtureFile('tokenizer.json'),
        'tokenizer_config.json': fixtureFile('tokenizer_config.json'),
        'onnx/model_quantized.onnx': fixtureFile('onnx/model.onnx'),
      },
    },
    'acme/restricted': {
      commit: 'c'.repeat(40),
      licence: 'cc-by-nc-4.0',
      files: { 'm.gguf': { content: Buffer.alloc(10) } },
    },
  });
});
afterAll(async () => {
  await hub.close();
  await rm(workDir, { recursive: true, force: true });
});

describe('arbiter models', () => {
  it('pull shows plain progress lines off a terminal, then list shows the model, then rm removes it', async () => {
    const pulled = await runArbiter(['models', 'pull', 'nli-deberta-v3-xsmall'], { env: env() });
    expect(pulled.code).toBe(0);
    expect(pulled.stderr).toContain(
      `Pulling ${XSMALL.repo}@${XSMALL.commit.slice(0, 12)} (4 files, licence apache-2.0)`,
    );
    expect(pulled.stderr).toMatch(/onnx\/model_quantized\.onnx: .*sha256 [0-9a-f]{16}… verified/);
    expect(pulled.stderr).not.toContain('\r');
    expect(pulled.stdout).toContain('Pulled: nli-deberta-v3-xsmall');

    const listed = await runArbiter(['models', 'list', '--json'], { env: env() });
    const body = JSON.parse(listed.stdout) as {
      models: { name: string; target: string; engine: string }[];
      local: { name: string; licence: string; bytes: number }[];
      recommended: { name: string; pulled: boolean; reported_accuracy: { source: string } | null }[];
    };
    expect(body.local).toMatchObject([{ name: 'nli-deberta-v3-xsmall', licence: 'apache-2.0' }]);
    expect(body.recommended.find((model) => model.name === 'nli-deberta-v3-xsmall')?.pulled).toBe(true);
    // arbiter-latest follows the best pulled model.
    expect(body.models.find((model) => model.name === 'arbiter-latest')).toMatchObject({
      target: 'arbiter-nli-xsmall-1.0.0',
      engine: 'nli',
    });
    const text = await runArbiter(['models'], { env: env() });
    expect(text.stdout).toContain('accuracy as reported by each model card, not measured by Arbiter');

    const again = await runArbiter(['models', 'pull', 'nli-deberta-v3-xsmall', '--offline'], { env: env() });
    expect(again).toMatchObject({ code: 0 });
    expect(again.stdout).toContain('Already in the cache');

    // The in-process client answers from the same catalog as the server: the pulled model.
    const questions = join(workDir, 'questions.json');
    writeFileSync(questions, JSON.stringify({ urgent: { type: 'noul', instructions: 'This is urgent.' } }));
    const decided = await runArbiter(['decide', '--state', '-', '--questions', questions, '--json'], {
      env: env(),
      input: 'Production is down!',
    });
    expect(decided.code).toBe(0);
    const decision = JSON.parse(decided.stdout) as {
      model: string;
      answers: { urgent: { arbiter: { engine: string } } };
    };
    expect(decision.model).toBe('arbiter-nli-xsmall-1.0.0');
    expect(decision.answers.urgent.arbiter.engine).toBe('nli');

    const removed = await runArbiter(['models', 'rm', 'nli-deberta-v3-xsmall'], { env: env() });
    expect(removed.code).toBe(0);
    const empty = JSON.parse((await runArbiter(['models', '--json'], { env: env() })).stdout) as {
      local: unknown[];
    };
    expect(empty.local).toEqual([]);
    expect((await runArbiter(['models', 'rm', 'nli-deberta-v3-xsmall'], { env: env() })).code).toBe(1);
  });

  it('exit statuses: 1 for a refused licence or an absent model offline, 2 for a malformed reference', async () => {
    const licence = await runArbiter(['models', 'pull', 'acme/restricted'], { env: env() });
    expect(licence.code).toBe(1);
    expect(licence.stderr).toContain('`cc-by-nc-4.0`');
    expect(licence.stderr).toContain('--accept-license');
    const offline = await runArbiter(['models', 'pull', 'acme/restricted', '--offline'], { env: env() });
    expect(offline.code).toBe(1);
    expect(offline.stderr).toContain('offline mode forbids downloading');
    const malformed = await runArbiter(['models', 'pull', '../etc'], { env: env() });
    expect(malformed.code).toBe(2);
  });

  it('add puts a model from a local directory into the cache, without network, and pull --offline finds it', async () => {
    const download = join(workDir, 'carried');
    const dir = join(workDir, 'added-models');
    for (const name of ['config.json', 'tokenizer.json', 'tokenizer_config.json'])
      cpSync(join(FIXTURE, name), join(download, name));
    cpSync(join(FIXTURE, 'onnx', 'model.onnx'), join(download, 'onnx', 'model_quantized.onnx'));
    const offlineEnv = { ...env(), HF_ENDPOINT: 'http://arbiter-no-such-host.invalid', ARBITER_OFFLINE: '1' };
    const added = await runArbiter(
      ['models', 'add', download, 'nli-deberta-v3-xsmall', '--models-dir', dir],
      {
        env: offlineEnv,
      },
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(
      /^Added: nli-deberta-v3-xsmall \(Xenova\/nli-deberta-v3-xsmall@4ce66096a56e, [\d.]+ [kM]B\) in /,
    );
    const found = await runArbiter(
      ['models', 'pull', 'nli-deberta-v3-xsmall', '--offline', '--models-dir', dir],
      {
        env: offlineEnv,
      },
    );
    expect(found.stdout).toContain('Already in the cache: nli-deberta-v3-xsmall');
    const missing = await runArbiter(
      ['models', 'add', join(workDir, 'nothing'), 'acme/x', '--models-dir', dir],
      {
        env: offlineEnv,
      },
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('is not a directory');
  });

  it('a pull without network explains itself, and leaves no empty entry for `models list`', async () => {
    const dir = join(workDir, 'no-network-models');
    const failed = await runArbiter(['models', 'pull', 'acme/anything', '--models-dir', dir], {
      env: { ...env(), HF_ENDPOINT: 'http://arbiter-no-such-host.invalid' },
    });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      /^arbiter models pull: acme\/anything: cannot resolve arbiter-no-such-host\.invalid \((ENOTFOUND|EAI_AGAIN)\); this machine looks offline or has no DNS; behind a proxy, set HTTPS_PROXY; without network, copy the model into the cache instead/,
    );
    const listed = await runArbiter(['models', '--models-dir', dir], { env: env() });
    expect(listed.stdout).toContain(`Model cache: ${dir}\n  (empty)`);
    expect(listed.stdout).not.toContain('incomplete');
    // Sizes in the units the docs use, and no reported metric cut inside its parentheses.
    expect(listed.stdout).toMatch(/nli-deberta-v3-xsmall +nli +~\d+ MB/);
    expect(listed.stdout).not.toMatch(/MiB|KiB|GiB/);
    for (const line of listed.stdout.split('\n'))
      expect(line.split('(').length, line).toBe(line.split(')').length);
  });

  it('serve --pull-default without network says so in one line and serves the built-in engine', async () => {
    const dataDir = join(workDir, 'offline-data');
    const { stderr, url, stop } = await startServe(
      ['--pull-default', '--no-auth', '--port', '0', '--data-dir', dataDir],
      {
        HOME: workDir,
        HF_ENDPOINT: 'http://127.0.0.1:1',
      },
    );
    try {
      const lines = stderr()
        .split('\n')
        .filter((line) => /No network|pulling|Pull failed/.test(line));
      expect(lines).toEqual([
        expect.stringMatching(
          /^No network \(.*ECONNREFUSED.*\): serving the built-in engine; run `arbiter models pull nli-deberta-v3-xsmall` when online\.$/,
        ),
      ]);
      const models = (await (await fetch(`${url}/v1/models`)).json()) as {
        models: { name: string; target: string }[];
      };
      expect(models.models.find((model) => model.name === 'arbiter-latest')?.target).toBe('arbiter-1.0.0');
    } finally {
      await stop();
    }
  });

  it('serve --pull-default pulls the default model first, then answers with it', async () => {
    const dataDir = join(workDir, 'online-data');
    const { stderr, stderrMatching, url, stop } = await startServe(
      ['--pull-default', '--no-auth', '--port', '0', '--data-dir', dataDir],
      {
        HOME: workDir,
        HF_ENDPOINT: hub.endpoint,
      },
    );
    try {
      expect(stderr()).toContain('First start: pulling nli-deberta-v3-xsmall');
      await stderrMatching(
        /^ {2}Default model {3}arbiter-latest answers with arbiter-nli-xsmall-1\.0\.0 \(pulled\)$/m,
      );
      const decide = await fetch(`${url}/v1/decision`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          state: 'Production is down! All API calls return 500.',
          questions: { urgent: { type: 'noul', instructions: 'This is urgent.' } },
        }),
      });
      const body = (await decide.json()) as {
        model: string;
        answers: { urgent: { arbiter: { engine: string } } };
      };
      expect(body.model).toBe('arbiter-nli-xsmall-1.0.0');
      expect(body.answers.urgent.arbiter.engine).toBe('nli');
    } finally {
      await stop();
    }
  });
});

async function startServe(args: string[], childEnv: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [ARBITER_BIN, 'serve', ...args], {
    env: { PATH: process.env.PATH, ...childEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const waiting = new Set<() => void>();
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const check of waiting) check();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /Arbiter listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return {
    url,
    stderr: () => stderr,
    /** Standard error once it matches: it is a separate pipe, so it may trail the listening line. */
    stderrMatching: (pattern: RegExp) =>
      new Promise<string>((resolve) => {
        const check = () => {
          if (!pattern.test(stderr)) return;
          waiting.delete(check);
          resolve(stderr);
        };
        waiting.add(check);
        check();
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
