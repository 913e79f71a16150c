import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EngineError } from '@arbiter/decision';
import { afterAll, describe, expect, it } from 'vitest';
import { readDecisionModelMetadata } from './decision-model-metadata.js';
import type { LlamaCppEngineConfigInput } from './llama-cpp-config.js';
import { createLlamaCppEngine, type LlamaCppEngine } from './llama-cpp-engine.js';

// Real GGUF files written by scripts/gguf/random-llama-gguf.mjs: a plain random-weight llama model,
// and the same model declaring `llama.decision.type`, the key by which llama.cpp (v0.6.0 and later)
// recognises a System One decision model. Real node-llama-cpp code reads and loads them.
const FIXTURE = fileURLToPath(new URL('./fixtures/tiny-random-llama.gguf', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../../../../scripts/gguf/random-llama-gguf.mjs', import.meta.url));
const generator = (await import(pathToFileURL(SCRIPT).href)) as {
  writeRandomLlamaGguf(options: { out: string; shape: string; decisionType?: string }): unknown;
};

const directory = mkdtempSync(join(tmpdir(), 'arbiter-decision-gguf-'));
const KEV = join(directory, 'declares-kev.gguf');
generator.writeRandomLlamaGguf({ out: KEV, shape: 'tiny', decisionType: 'kev' });

const engines: LlamaCppEngine[] = [];
function engine(overrides: Partial<LlamaCppEngineConfigInput>): LlamaCppEngine {
  const created = createLlamaCppEngine({
    kind: 'llama-cpp',
    model: { path: KEV },
    gpu: false,
    threads: 1,
    ...overrides,
  });
  engines.push(created);
  return created;
}
afterAll(async () => {
  for (const created of engines) await created.close();
  rmSync(directory, { recursive: true, force: true });
});

const QUESTIONS = { urgent: { type: 'noul', instructions: 'Does this need action today?' } } as const;

describe('readDecisionModelMetadata', () => {
  it('reads the architecture and decision type a GGUF declares', async () => {
    expect(await readDecisionModelMetadata(KEV)).toEqual({ architecture: 'llama', decisionType: 'kev' });
  });

  it('finds none in a plain language model', async () => {
    expect(await readDecisionModelMetadata(FIXTURE)).toBeNull();
  });

  it('rejects a file that is not GGUF', async () => {
    const junk = join(directory, 'junk.gguf');
    writeFileSync(junk, 'not a gguf header at all');
    await expect(readDecisionModelMetadata(junk)).rejects.toThrow();
  });
});

describe('llama-cpp engine and System One decision models', () => {
  it('refuses by default to read a decision model as a language model, naming the file and its type', async () => {
    const failure = await engine({})
      .evaluate({ state: 'The build is red.', questions: QUESTIONS })
      .catch((error: unknown) => error);
    expect(EngineError.isInstance(failure)).toBe(true);
    expect((failure as EngineError).code).toBe('engine_unavailable');
    expect((failure as EngineError).isRetryable).toBe(false);
    expect((failure as EngineError).message).toContain(KEV);
    expect((failure as EngineError).message).toContain('llama.decision.type = "kev"');
  });

  it('reads label tokens from it when told to, through the real llama.cpp path', async () => {
    const { answers } = await engine({ decisionModels: 'read-label-tokens' }).evaluate({
      state: 'The build is red.',
      questions: QUESTIONS,
    });
    const answer = answers.urgent;
    if (answer?.type !== 'noul') throw new Error(`expected a noul answer, got ${JSON.stringify(answer)}`);
    expect(answer.noul).toBeGreaterThanOrEqual(0);
    expect(answer.noul).toBeLessThanOrEqual(1);
  });

  it('reports a file that is not GGUF as unavailable, naming it', async () => {
    const junk = join(directory, 'junk-engine.gguf');
    writeFileSync(junk, 'not a gguf header at all');
    const failure = await engine({ model: { path: junk } })
      .evaluate({ state: 'x', questions: QUESTIONS })
      .catch((error: unknown) => error);
    expect((failure as EngineError).code).toBe('engine_unavailable');
    expect((failure as EngineError).message).toContain(junk);
  });
});
