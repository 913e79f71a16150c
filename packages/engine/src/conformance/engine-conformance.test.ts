import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DecisionEngine } from '@arbiter/decision';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ScriptedChatServer,
  type ScriptedReply,
  startScriptedChatServer,
} from '../../test/support/scripted-chat-server.js';
import { loadWordVectors } from '../builtin/lexical/word-vectors.js';
import { ModelCatalog } from '../catalog/model-catalog.js';
import { type Ask, ENGINE_LAWS, LAWS_KEPT, lawsTable } from './engine-laws.js';

// One table of laws (engine-laws.ts), run against every engine kind through the catalog, the way
// each is served: `builtin`; `openai-compatible` against a scripted model server on 127.0.0.1
// speaking the chat-completions wire format; `nli` and `llama-cpp` with the repository's
// random-weight fixture models. A kind must keep every law LAWS_KEPT claims for it.

const NLI_FIXTURE = fileURLToPath(new URL('../../test/fixtures/tiny-nli', import.meta.url));
const GGUF_FIXTURE = fileURLToPath(new URL('../llama/fixtures/tiny-random-llama.gguf', import.meta.url));
const DOCS = fileURLToPath(new URL('../../../../docs/engines.md', import.meta.url));

/** The scripted model: each label's probability a hash of the label and the whole prompt. */
function completion(prompt: string): ScriptedReply {
  const labels = prompt.includes('Reply with only yes or no')
    ? ['yes', 'no']
    : (/\(one of ([^)]*)\)\.\s*$/.exec(prompt)?.[1]?.split(', ') ?? []);
  const unit = (text: string) => createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
  return {
    top: labels.map((label) => [label, 0.05 + unit(`${label}\n${prompt}`)] as const),
    usage: { prompt_tokens: 50, completion_tokens: 1 },
  };
}

let server: ScriptedChatServer;
let catalog: ModelCatalog;

beforeAll(async () => {
  await loadWordVectors();
  server = await startScriptedChatServer(({ prompt }) => completion(prompt), { models: ['scripted-model'] });
  const baseURL = server.baseURL;
  const entry = (name: string, engine: { kind: string; [member: string]: unknown }) => ({
    name,
    description: '',
    release_date: '2026-01-01',
    engine,
  });
  catalog = new ModelCatalog({
    analysers: [],
    config: {
      models: [
        entry('scripted-1.0.0', { kind: 'openai-compatible', baseURL, model: 'scripted-model' }),
        entry('nli-1.0.0', { kind: 'nli', path: NLI_FIXTURE, threads: 1 }),
        entry('gguf-1.0.0', {
          kind: 'llama-cpp',
          model: { path: GGUF_FIXTURE },
          gpu: false,
          threads: 1,
          contextSize: 1024,
        }),
      ],
    },
  });
}, 180_000);

afterAll(() => server.close());

const PINS: Record<string, string> = {
  builtin: 'arbiter-1.0.0',
  'openai-compatible': 'scripted-1.0.0',
  nli: 'nli-1.0.0',
  'llama-cpp': 'gguf-1.0.0',
};

function askOf(engine: DecisionEngine): Ask {
  return async (request) => (await engine.evaluate(request)).answers;
}

describe.each(Object.keys(LAWS_KEPT))('engine kind %s', (kind) => {
  const kept = ENGINE_LAWS.filter((law) => LAWS_KEPT[kind]!.includes(law.id));
  it.each(kept.map((law) => [law.id, law] as const))(
    'keeps %s',
    async (_id, law) => {
      const ask = askOf(catalog.resolve(PINS[kind]).engine);
      expect(await law.check(ask)).toBeUndefined();
    },
    120_000,
  );
});

describe('the laws themselves', () => {
  it('find what they look for: the scripted model breaks the laws its kind does not claim', async () => {
    const ask = askOf(catalog.resolve(PINS['openai-compatible']).engine);
    for (const id of [
      'choice-set',
      'option-ids-are-names',
      'negation',
      'and-or',
      'reverse-levels',
      'cumulative-levels',
      'noul-as-score',
    ]) {
      const law = ENGINE_LAWS.find((candidate) => candidate.id === id)!;
      expect(await law.check(ask), id).toEqual(expect.any(String));
    }
  });

  it('are stated in docs/engines.md exactly as the suite checks them', () => {
    const page = readFileSync(DOCS, 'utf8');
    const table = /<!-- engine-laws:start[^>]*-->\n([\s\S]*?)\n<!-- engine-laws:end -->/.exec(page)?.[1];
    expect(table).toBe(lawsTable());
  });

  it('cover every engine kind the catalog knows', async () => {
    const { DEFAULT_ENGINE_KINDS } = await import('../catalog/model-catalog.js');
    expect(Object.keys(LAWS_KEPT).sort()).toEqual(Object.keys(DEFAULT_ENGINE_KINDS).sort());
  });
});
