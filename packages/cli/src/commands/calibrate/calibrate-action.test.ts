import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  type ScriptedChatServer,
  startScriptedChatServer,
} from '../../../../engine/test/support/scripted-chat-server.js';
import { runArbiter } from '../../../test/support/run-arbiter.js';
import { CalibrateInputError, runCalibrate } from './calibrate-action.js';

// A fake OpenAI-compatible model server on loopback (real HTTP, real chat-completions wire format):
// it answers every Noul with P(yes) = 0.99, while only 3 in 4 of the labelled examples are true.
// The log-loss optimum then puts P(yes) at 0.75, i.e. 99^(1/T) = 3, T = ln 99 / ln 3.
const EXPECTED_TEMPERATURE = Math.log(99) / Math.log(3);

/** The real `arbiter` command as a subprocess (needs `npx tsc -b` first: the launcher runs dist/). */
const arbiter = (args: string[], env: Record<string, string> = {}) =>
  runArbiter(args, { env: { ...process.env, ...env } });

let server: ScriptedChatServer;
let baseURL: string;
let directory: string;
const requestCount = () => server.requests.length;

beforeEach(async () => {
  server = await startScriptedChatServer(() => ({
    top: [
      ['yes', 0.99],
      ['no', 0.01],
    ],
    usage: { prompt_tokens: 50, completion_tokens: 1 },
  }));
  baseURL = server.baseURL;
  directory = await mkdtemp(join(tmpdir(), 'arbiter-calibrate-'));
});

afterEach(async () => {
  await server.close();
  await rm(directory, { recursive: true, force: true });
});

async function writeData(count: number): Promise<string> {
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      state: `ticket ${i}`,
      question: { type: 'noul', instructions: 'Is it urgent?' },
      expected: i % 4 !== 0,
    }),
  );
  const path = join(directory, 'labelled.jsonl');
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

function yamlConfig(): string {
  return [
    '# operator notes survive calibration',
    'server:',
    '  port: 8080',
    'catalog:',
    '  aliases:',
    '    judge: judge-latest',
    '  models:',
    '    - name: judge-1.0.0',
    '      release_date: 2026-11-01',
    '      engine:',
    '        kind: openai-compatible',
    `        baseURL: ${baseURL}`,
    '        model: judge # upstream name',
    '        concurrency: 4',
    '',
  ].join('\n');
}

describe('arbiter calibrate', () => {
  it('fits the temperature, stores it in the YAML catalog entry keeping the rest, and writes the diagram', async () => {
    const config = join(directory, 'arbiter.yaml');
    await writeFile(config, yamlConfig());
    const out = join(directory, 'diagram.png');
    const printed: string[] = [];
    const report = await runCalibrate(
      { model: 'judge', data: await writeData(40), config, out },
      { stdout: (text) => printed.push(text) },
    );

    expect(requestCount()).toBe(40);
    const [noul] = report.byType;
    expect(noul?.temperature).toBeCloseTo(EXPECTED_TEMPERATURE, 4);
    expect(noul?.before.ece).toBeCloseTo(0.24, 10);
    expect(noul?.after.ece).toBeCloseTo(0, 4);
    expect(noul!.after.brier).toBeLessThan(noul!.before.brier);

    const text = await readFile(config, 'utf8');
    expect(text).toContain('# operator notes survive calibration');
    expect(text).toContain('model: judge # upstream name');
    const stored = parse(text);
    expect(stored.server).toEqual({ port: 8080 });
    expect(stored.catalog.models[0].engine.concurrency).toBe(4);
    expect(stored.catalog.models[0].engine.calibration.noul.temperature).toBeCloseTo(EXPECTED_TEMPERATURE, 4);

    const png = PNG.sync.read(await readFile(out));
    expect([png.width, png.height]).toEqual([400, 400]);
    expect(printed.join('')).toMatch(/judge-1\.0\.0[\s\S]*noul\s+40\s+4\.18\d[\s\S]*only 40 noul examples/);
  });

  it('updates a JSON configuration, and the calibrated engine then answers 0.75', async () => {
    const config = join(directory, 'arbiter.json');
    const yamlish = parse(yamlConfig());
    await writeFile(config, JSON.stringify(yamlish, null, 2));
    await runCalibrate(
      { model: 'judge-1.0.0', data: await writeData(8), config, json: true },
      { stdout: () => {} },
    );
    const stored = JSON.parse(await readFile(config, 'utf8'));
    const { createOpenAICompatibleEngine } = await import('@arbiter/engine');
    const engine = createOpenAICompatibleEngine(stored.catalog.models[0].engine);
    const { answers } = await engine.evaluate({
      state: 'x',
      questions: { q: { type: 'noul', instructions: 'urgent?' } },
    });
    expect(answers.q?.type === 'noul' && answers.q.noul).toBeCloseTo(0.75, 4);
  });

  it('explains what is wrong with the model, the configuration or the data', async () => {
    const config = join(directory, 'arbiter.yaml');
    await writeFile(config, yamlConfig());
    const data = await writeData(4);
    const run = (options: Partial<Parameters<typeof runCalibrate>[0]>) =>
      runCalibrate({ model: 'judge', data, config, ...options }, { stdout: () => {} });
    await expect(run({ model: 'nope-1.0.0' })).rejects.toThrow(CalibrateInputError);
    await expect(run({ model: 'nope-1.0.0' })).rejects.toThrow(/judge-1\.0\.0/);
    await expect(run({ model: 'arbiter-1.0.0' })).rejects.toThrow(/not an openai-compatible model/);
    await expect(run({ config: join(directory, 'missing.yaml') })).rejects.toThrow(
      /cannot read the configuration file .*ENOENT/,
    );
    await writeFile(
      join(directory, 'bad.jsonl'),
      '{"state":"s","question":{"type":"noul","instructions":"q"},"expected":1}\n',
    );
    await expect(run({ data: join(directory, 'bad.jsonl') })).rejects.toThrow(/bad\.jsonl: line 1: expected/);
    expect(requestCount()).toBe(0);
  });

  it('runs as the arbiter command: config from $ARBITER_CONFIG, exit 0; exit 2 for bad input and 1 for a model server that fails, each with a message', async () => {
    const config = join(directory, 'arbiter.yaml');
    await writeFile(config, yamlConfig());
    const data = await writeData(12);
    const ok = await arbiter(['calibrate', '--model', 'judge-latest', '--data', data, '--json'], {
      ARBITER_CONFIG: config,
    });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const report = JSON.parse(ok.stdout);
    expect(report.model).toBe('judge-1.0.0');
    expect(report.calibration.noul.temperature).toBeCloseTo(EXPECTED_TEMPERATURE, 4);
    expect(
      parse(await readFile(config, 'utf8')).catalog.models[0].engine.calibration.noul.temperature,
    ).toBeCloseTo(EXPECTED_TEMPERATURE, 4);

    const bad = await arbiter(['calibrate', '--model', 'ghost-1.0.0', '--data', data, '--config', config]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^arbiter calibrate: .*ghost-1\.0\.0/);
    expect(bad.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace

    await server.close(); // afterEach's close then finds nothing to close
    const down = await arbiter(['calibrate', '--model', 'judge', '--data', data, '--config', config]);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(
      /^arbiter calibrate: example \d+: could not reach the model server at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/,
    );
  });
});
