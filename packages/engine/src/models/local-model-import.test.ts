import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addLocalModel, LOCAL_REVISION } from './local-model-import.js';
import { ModelCache } from './model-cache.js';
import { pullModel } from './model-pull.js';
import { PullError } from './pull-error.js';

let work: string;
let source: string;
let cache: ModelCache;

function put(file: string, content: string) {
  const target = path.join(source, ...file.split('/'));
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, content);
}

beforeEach(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'arbiter-add-'));
  source = path.join(work, 'download');
  cache = new ModelCache(path.join(work, 'models'));
  put('config.json', '{"id2label":{}}');
  put('tokenizer.json', '{"model":{}}');
  put('onnx/model_quantized.onnx', 'weights');
  put('README.md', '# card');
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

async function failure(promise: Promise<unknown>): Promise<PullError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!PullError.isInstance(error)) throw new Error(`expected a PullError, got ${String(error)}`);
  return error;
}

describe('addLocalModel', () => {
  it('copies and hashes a recommended model’s files, and a pull offline then finds it', async () => {
    put('tokenizer_config.json', '{}');
    const added = await addLocalModel(source, 'nli-deberta-v3-xsmall', { cache });
    expect(added.alreadyInstalled).toBe(false);
    expect(added.model.manifest).toMatchObject({
      name: 'nli-deberta-v3-xsmall',
      engineKind: 'nli',
      licence: 'apache-2.0',
    });
    const config = added.model.manifest.files.find((file) => file.path === 'config.json');
    expect(config?.sha256).toBe(createHash('sha256').update('{"id2label":{}}').digest('hex'));
    const found = await pullModel('nli-deberta-v3-xsmall', { cache, env: { ARBITER_OFFLINE: '1' } });
    expect(found.alreadyInstalled).toBe(true);
    expect((await addLocalModel(source, 'nli-deberta-v3-xsmall', { cache })).alreadyInstalled).toBe(true);
  });

  it('takes owner/name with a commit or as `local`, choosing the NLI files, and asks for its licence', async () => {
    const unstated = await failure(addLocalModel(source, 'acme/tiny-nli', { cache }));
    expect(unstated.code).toBe('licence_not_accepted');
    expect(unstated.message).toContain('--license');
    const local = await addLocalModel(source, 'acme/tiny-nli', { cache, licence: 'mit' });
    expect(local.model.manifest.revision).toBe(LOCAL_REVISION);
    expect(local.model.manifest.files.map((file) => file.path).sort()).toEqual([
      'config.json',
      'onnx/model_quantized.onnx',
      'tokenizer.json',
    ]);
    const commit = 'b'.repeat(40);
    const pinned = await addLocalModel(source, `acme/tiny-nli@${commit}`, { cache, licence: 'mit' });
    expect(pinned.model.manifest.revision).toBe(commit);
    const branch = await failure(addLocalModel(source, 'acme/tiny-nli@main', { cache, licence: 'mit' }));
    expect(branch.message).toContain('is not a commit hash');
  });

  it('refuses a missing file and a link in the cache, leaving nothing behind', async () => {
    const missing = await failure(
      addLocalModel(source, 'acme/tiny-nli', { cache, licence: 'mit', files: ['onnx/other.onnx'] }),
    );
    expect(missing.message).toContain('no file `onnx/other.onnx`');
    const outside = path.join(work, 'outside');
    mkdirSync(outside);
    mkdirSync(cache.root, { recursive: true });
    symlinkSync(outside, path.join(cache.root, 'acme--tiny-nli'));
    const linked = await failure(addLocalModel(source, 'acme/tiny-nli', { cache, licence: 'mit' }));
    expect(linked.code).toBe('unsafe_cache');
    expect(readdirSync(outside)).toEqual([]);
  });
});
