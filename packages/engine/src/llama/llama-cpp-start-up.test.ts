import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const FIXTURE = fileURLToPath(new URL('./fixtures/tiny-random-llama.gguf', import.meta.url));
const CATALOG = fileURLToPath(new URL('../catalog/index.ts', import.meta.url));
const ENGINE = fileURLToPath(new URL('./llama-cpp-engine.ts', import.meta.url));

// A module hook that refuses to resolve node-llama-cpp: a process that imports it fails.
const REFUSE_NODE_LLAMA_CPP = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(
  'export async function resolve(specifier, context, next) {' +
  '  if (specifier === "node-llama-cpp") throw new Error("node-llama-cpp was imported");' +
  '  return next(specifier, context);' +
  '}'));
`)}`;

async function runWithHook(script: string) {
  return run(
    process.execPath,
    [
      '--conditions=arbiter-source',
      '--import',
      'tsx',
      '--import',
      REFUSE_NODE_LLAMA_CPP,
      '--input-type=module',
      '-e',
      script,
    ],
    { timeout: 60_000 },
  );
}

describe('start-up cost of the llama-cpp kind', () => {
  it('builds a catalog with a llama-cpp model without importing node-llama-cpp', async () => {
    const { stdout } = await runWithHook(`
      const { ModelCatalog } = await import(${JSON.stringify(CATALOG)});
      const catalog = new ModelCatalog({ analysers: [], config: { models: [{ name: 'tiny-1.0.0', description: '',
        release_date: '2026-11-23', engine: { kind: 'llama-cpp', model: { path: ${JSON.stringify(FIXTURE)} } } }] } });
      console.log(catalog.resolve('tiny-latest').engine.engineId);
    `);
    expect(stdout.trim()).toBe('llama-cpp');
  });

  it('imports it when the model first answers (the hook does see the import)', async () => {
    const result = await runWithHook(`
      const { createLlamaCppEngine } = await import(${JSON.stringify(ENGINE)});
      const engine = createLlamaCppEngine({ kind: 'llama-cpp', model: { path: ${JSON.stringify(FIXTURE)} }, gpu: false });
      await engine.load();
    `).catch((error: { stderr: string }) => error);
    expect('stderr' in result && result.stderr).toMatch(/node-llama-cpp was imported/);
  });
});
