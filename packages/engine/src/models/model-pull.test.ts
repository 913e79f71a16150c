import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeHub, type FakeRepo, startFakeHub } from '../../test/fake-hub.js';
import { MANIFEST_FILE, ModelCache } from './model-cache.js';
import { pullModel } from './model-pull.js';
import { PullError } from './pull-error.js';
import { RECOMMENDED_MODELS } from './recommended-models.js';

const COMMIT = 'a'.repeat(40);
const weights = randomBytes(200_000);
const config = Buffer.from('{"id2label":{"0":"contradiction","1":"entailment","2":"neutral"}}');

function nliRepo(overrides: Partial<FakeRepo> = {}): FakeRepo {
  return {
    commit: COMMIT,
    files: {
      'config.json': { content: config },
      'tokenizer.json': { content: Buffer.from('{"model":{}}') },
      'onnx/model.onnx': { content: weights },
      'onnx/model_quantized.onnx': { content: weights.subarray(0, 50_000) },
      'README.md': { content: Buffer.from('# card') },
    },
    ...overrides,
  };
}

let hub: FakeHub | undefined;
let root: string;
let cache: ModelCache;
const env = {} as NodeJS.ProcessEnv;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'arbiter-models-'));
  cache = new ModelCache(root);
});
afterEach(async () => {
  await hub?.close();
  hub = undefined;
  rmSync(root, { recursive: true, force: true });
});

async function pullError(promise: Promise<unknown>): Promise<PullError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!PullError.isInstance(error)) throw new Error(`expected a PullError, got ${String(error)}`);
  return error;
}

describe('pullModel against a local server that answers like the Hub', () => {
  it('resolves a branch to its commit, downloads the NLI files, verifies them and writes the manifest last', async () => {
    hub = await startFakeHub({ 'acme/tiny-nli': nliRepo() });
    const events: string[] = [];
    const result = await pullModel('acme/tiny-nli', {
      cache,
      endpoint: hub.endpoint,
      env,
      now: () => new Date('2026-11-23T12:00:00Z'),
      onEvent: (event) => events.push(event.type),
    });
    expect(result.alreadyInstalled).toBe(false);
    const { manifest, dir } = result.model;
    expect(manifest.revision).toBe(COMMIT);
    expect(manifest.engineKind).toBe('nli');
    expect(manifest.files.map((file) => file.path)).toEqual([
      'config.json',
      'tokenizer.json',
      'onnx/model_quantized.onnx',
    ]);
    expect(readFileSync(path.join(dir, 'onnx/model_quantized.onnx'))).toEqual(weights.subarray(0, 50_000));
    expect(manifest.files[2]!.sha256).toBe(
      createHash('sha256').update(weights.subarray(0, 50_000)).digest('hex'),
    );
    expect(existsSync(path.join(dir, MANIFEST_FILE))).toBe(true);
    // The manifest is written whole, with a new file's default mode, and no temporary name is left.
    expect(statSync(path.join(dir, MANIFEST_FILE)).mode & 0o777).toBe(0o666 & ~process.umask());
    expect(readdirSync(dir).filter((name) => name.includes('.partial'))).toEqual([]);
    expect(events[0]).toBe('resolved');
    expect(events.filter((type) => type === 'verified')).toHaveLength(3);
    expect(cache.find('acme/tiny-nli')?.dir).toBe(dir);
    // Pinned by commit, the second pull asks the network nothing.
    const before = hub.requests.length;
    expect(
      (await pullModel(`acme/tiny-nli@${COMMIT}`, { cache, endpoint: hub.endpoint, env })).alreadyInstalled,
    ).toBe(true);
    expect(hub.requests.length).toBe(before);
  });

  it('follows the redirect to another origin without sending the token there', async () => {
    hub = await startFakeHub({ 'acme/tiny-nli': nliRepo() });
    await pullModel('acme/tiny-nli', {
      cache,
      endpoint: hub.endpoint,
      env,
      token: 'hf_secret',
      files: ['onnx/model.onnx'],
    });
    const hubHits = hub.requests.filter((request) => request.server === 'hub');
    const cdnHits = hub.requests.filter((request) => request.server === 'cdn');
    expect(cdnHits.length).toBe(1);
    expect(hubHits.every((request) => request.authorization === 'Bearer hf_secret')).toBe(true);
    expect(cdnHits.every((request) => request.authorization === undefined)).toBe(true);
  });

  it('follows a renamed repository’s relative redirects, for the API and for each file', async () => {
    hub = await startFakeHub({ 'acme/tiny-nli': nliRepo() }, { 'old/tiny-nli': 'acme/tiny-nli' });
    const result = await pullModel('old/tiny-nli', { cache, endpoint: hub.endpoint, env });
    expect(result.model.manifest.files).toHaveLength(3);
    expect(hub.requests.some((request) => request.url.startsWith('/old/tiny-nli/resolve/'))).toBe(true);
    expect(hub.requests.some((request) => request.url.startsWith('/acme/tiny-nli/resolve/'))).toBe(true);
  });

  it('resumes a cut download with a Range request and verifies the joined file', async () => {
    hub = await startFakeHub({ 'acme/tiny-nli': nliRepo() });
    hub.cutNext('onnx/model.onnx', 70_000);
    // A short body timeout ends the stalled transfer, as a dead connection would end it.
    const dispatcher = new Agent({ bodyTimeout: 1_000 });
    const options = { cache, endpoint: hub.endpoint, env, files: ['onnx/model.onnx'] };
    const cut = await pullError(pullModel('acme/tiny-nli', { ...options, dispatcher }));
    await dispatcher.close();
    expect(cut.code).toBe('network');
    expect(cut.message).toContain('run the pull again to resume');
    const partial = path.join(cache.revisionDir('acme/tiny-nli', COMMIT), 'onnx', 'model.onnx.partial');
    const kept = statSync(partial).size;
    expect(kept).toBe(70_000);
    expect(cache.installed()).toEqual([]);
    expect(cache.incomplete().map((model) => model.repo)).toEqual(['acme/tiny-nli']);

    const result = await pullModel('acme/tiny-nli', options);
    expect(hub.requests.filter((request) => request.server === 'cdn').at(-1)?.range).toBe(`bytes=${kept}-`);
    expect(readFileSync(path.join(result.model.dir, 'onnx', 'model.onnx'))).toEqual(weights);
    expect(existsSync(partial)).toBe(false);
  });

  it('discards a file whose sha256 differs from the announced one and writes no manifest', async () => {
    const repo = nliRepo();
    hub = await startFakeHub({
      'acme/tiny-nli': {
        ...repo,
        files: { ...repo.files, 'onnx/model.onnx': { content: weights, announcedSha256: 'b'.repeat(64) } },
      },
    });
    const error = await pullError(
      pullModel('acme/tiny-nli', { cache, endpoint: hub.endpoint, env, files: ['onnx/model.onnx'] }),
    );
    expect(error.code).toBe('checksum_mismatch');
    expect(error.message).toContain('b'.repeat(64));
    const dir = cache.revisionDir('acme/tiny-nli', COMMIT);
    expect(existsSync(path.join(dir, 'onnx', 'model.onnx'))).toBe(false);
    expect(existsSync(path.join(dir, 'onnx', 'model.onnx.partial'))).toBe(false);
    expect(cache.installed()).toEqual([]);
  });

  it('checks a curated model against the digest pinned in the list, not the server', async () => {
    const curated = RECOMMENDED_MODELS.find((model) => model.name === 'nli-deberta-v3-xsmall')!;
    const files = Object.fromEntries(
      curated.files.map((file) => [file.path, { content: randomBytes(3000) }]),
    );
    hub = await startFakeHub({ [curated.repo]: { commit: curated.revision!, files } });
    const result = await pullModel(curated.name, { cache, endpoint: hub.endpoint, env });
    expect(result.model.manifest.name).toBe(curated.name);
    expect(result.model.manifest.licence).toBe('apache-2.0');
    expect(cache.find(curated.name)?.manifest.revision).toBe(curated.revision);
  });

  it('names a missing repository, revision or file (404)', async () => {
    hub = await startFakeHub({ 'acme/tiny-nli': nliRepo() });
    const missingRepo = await pullError(pullModel('acme/nothing', { cache, endpoint: hub.endpoint, env }));
    expect(missingRepo.code).toBe('not_found');
    expect(missingRepo.message).toContain('acme/nothing@main');
    const missingRevision = await pullError(
      pullModel('acme/tiny-nli@v9', { cache, endpoint: hub.endpoint, env }),
    );
    expect(missingRevision.code).toBe('not_found');
    const missingFile = await pullError(
      pullModel('acme/tiny-nli', { cache, endpoint: hub.endpoint, env, files: ['onnx/other.onnx'] }),
    );
    expect(missingFile.message).toContain('onnx/other.onnx');
  });

  it('reports a 404 from the resolve endpoint for a file the listing names', async () => {
    const curated = RECOMMENDED_MODELS.find((model) => model.name === 'nli-deberta-v3-xsmall')!;
    hub = await startFakeHub({
      [curated.repo]: { commit: curated.revision!, files: { 'config.json': { content: config } } },
    });
    const error = await pullError(pullModel(curated.name, { cache, endpoint: hub.endpoint, env }));
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('tokenizer.json');
  });

  it('refuses a licence outside the accepted list unless told to accept it', async () => {
    hub = await startFakeHub({
      'acme/custom': nliRepo({ licence: 'other' }),
      'acme/none': nliRepo({ licence: null }),
    });
    const refused = await pullError(pullModel('acme/custom', { cache, endpoint: hub.endpoint, env }));
    expect(refused.code).toBe('licence_not_accepted');
    expect(refused.message).toContain('`other`');
    expect(
      (await pullError(pullModel('acme/none', { cache, endpoint: hub.endpoint, env }))).message,
    ).toContain('not stated');
    expect(hub.requests.some((request) => request.url.includes('/resolve/'))).toBe(false);
    const accepted = await pullModel('acme/custom', {
      cache,
      endpoint: hub.endpoint,
      env,
      acceptLicence: true,
    });
    expect(accepted.model.manifest.licence).toBe('other');
  });

  it('never writes outside the cache for a hostile file path', async () => {
    hub = await startFakeHub({
      'acme/tiny-nli': nliRepo({ files: { '../../escape.onnx': { content: weights } } }),
    });
    const error = await pullError(
      pullModel('acme/tiny-nli', { cache, endpoint: hub.endpoint, env, files: ['../../escape.onnx'] }),
    );
    expect(error.message).toContain('not a safe file path');
    expect(existsSync(path.join(root, '..', 'escape.onnx'))).toBe(false);
  });

  it('asks a multi-GGUF repository which file to pull', async () => {
    hub = await startFakeHub({
      'acme/gguf': {
        commit: COMMIT,
        files: { 'm-Q4_K_M.gguf': { content: weights }, 'm-Q8_0.gguf': { content: weights } },
      },
    });
    const error = await pullError(pullModel('acme/gguf', { cache, endpoint: hub.endpoint, env }));
    expect(error.code).toBe('ambiguous_files');
    expect(error.message).toContain('m-Q8_0.gguf');
    const picked = await pullModel('acme/gguf', {
      cache,
      endpoint: hub.endpoint,
      env,
      files: ['m-Q8_0.gguf'],
    });
    expect(picked.model.manifest.engineKind).toBe('llama-cpp');
  });

  it('offline: answers from the cache, and refuses without a request when the model is absent', async () => {
    hub = await startFakeHub({ 'acme/tiny-nli': nliRepo() });
    const absent = await pullError(
      pullModel('acme/tiny-nli', { cache, endpoint: hub.endpoint, env, offline: true }),
    );
    expect(absent.code).toBe('offline');
    expect(hub.requests).toEqual([]);
    await pullModel('acme/tiny-nli', { cache, endpoint: hub.endpoint, env });
    const count = hub.requests.length;
    const cached = await pullModel('acme/tiny-nli', {
      cache,
      endpoint: hub.endpoint,
      env: { HF_HUB_OFFLINE: '1' },
    });
    expect(cached.alreadyInstalled).toBe(true);
    expect(hub.requests.length).toBe(count);
  });

  it('a network failure is a `network` error that names the cause', async () => {
    const error = await pullError(pullModel('acme/tiny-nli', { cache, endpoint: 'http://127.0.0.1:1', env }));
    expect(error.code).toBe('network');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('goes through the proxy named by HTTP_PROXY', async () => {
    hub = await startFakeHub({ 'acme/tiny-nli': nliRepo() });
    const seen: string[] = [];
    // undici's proxy agent tunnels every request with CONNECT, as through a corporate proxy.
    const proxy = createServer();
    proxy.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
      seen.push(request.url ?? '');
      const [host, port] = (request.url ?? '').split(':');
      const upstream = connect(Number(port), host!, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      await pullModel('acme/tiny-nli', { cache, endpoint: hub.endpoint, env: { HTTP_PROXY: proxyUrl } });
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
    expect(seen).toContain(new URL(hub.endpoint).host);
    expect(seen).toContain(new URL(hub.cdnOrigin).host);
  });
});

describe('pullModel never trusts the cache or the server further than it must', () => {
  it('refuses a symbolic link planted in the cache and writes nothing through it', async () => {
    hub = await startFakeHub({ 'acme/tiny-nli': nliRepo() });
    const outside = mkdtempSync(path.join(os.tmpdir(), 'arbiter-outside-'));
    try {
      // A repository directory that is a link to elsewhere.
      symlinkSync(outside, path.join(root, 'acme--tiny-nli'));
      const byDirectory = await pullError(pullModel('acme/tiny-nli', { cache, endpoint: hub.endpoint, env }));
      expect(byDirectory.code).toBe('unsafe_cache');
      expect(byDirectory.message).toContain('is a symbolic link');
      expect(readdirSync(outside)).toEqual([]);
      rmSync(path.join(root, 'acme--tiny-nli'));

      // A part file that is a link to a file the user owns.
      const victim = path.join(outside, 'victim');
      writeFileSync(victim, 'keep me');
      const dir = cache.revisionDir('acme/tiny-nli', COMMIT);
      mkdirSync(path.join(dir, 'onnx'), { recursive: true });
      symlinkSync(victim, path.join(dir, 'onnx', 'model.onnx.partial'));
      const byFile = await pullError(
        pullModel('acme/tiny-nli', { cache, endpoint: hub.endpoint, env, files: ['onnx/model.onnx'] }),
      );
      expect(byFile.code).toBe('unsafe_cache');
      expect(readFileSync(victim, 'utf8')).toBe('keep me');
      expect(hub.requests.some((request) => request.url.includes('/resolve/'))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('stops reading at the announced length and keeps nothing of a longer body', async () => {
    let sent = 0;
    let closed = false;
    const server = createServer((request, response) => {
      if (request.url?.startsWith('/api/models/')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        return void response.end(
          JSON.stringify({ sha: COMMIT, siblings: [{ rfilename: 'm.gguf' }], cardData: { license: 'mit' } }),
        );
      }
      // Announces 5,000 bytes, then sends without end (chunked) until the client hangs up.
      response.writeHead(200, { 'x-linked-size': '5000', 'x-linked-etag': `"${'c'.repeat(64)}"` });
      response.on('close', () => {
        closed = true;
      });
      const chunk = Buffer.alloc(16_384, 1);
      const pump = (out: ServerResponse) => {
        while (!closed && sent < 200_000_000) {
          sent += chunk.length;
          if (!out.write(chunk)) return void out.once('drain', () => pump(out));
        }
        out.end();
      };
      pump(response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const error = await pullError(pullModel('acme/endless', { cache, endpoint, env }));
      expect(error.code).toBe('oversized');
      expect(error.message).toContain('more than the 5000 bytes it announced');
      const dir = cache.revisionDir('acme/endless', COMMIT);
      expect(existsSync(path.join(dir, 'm.gguf.partial'))).toBe(false);
      // The client hung up long before the server's 200 MB: it read about what was announced.
      expect(sent).toBeLessThan(20_000_000);
      expect(cache.incomplete()).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('fetches and verifies a file asked for with --file that a cached revision lacks, and keeps the others', async () => {
    hub = await startFakeHub({ 'acme/tiny-nli': nliRepo() });
    const options = { cache, endpoint: hub.endpoint, env };
    await pullModel(`acme/tiny-nli@${COMMIT}`, options);
    const other = await pullModel(`acme/tiny-nli@${COMMIT}`, { ...options, files: ['README.md'] });
    expect(other.alreadyInstalled).toBe(false);
    expect(hub.requests.some((request) => request.url.endsWith('/README.md'))).toBe(true);
    expect(other.model.manifest.files.map((file) => file.path).sort()).toEqual([
      'README.md',
      'config.json',
      'onnx/model_quantized.onnx',
      'tokenizer.json',
    ]);
    expect(readFileSync(path.join(other.model.dir, 'README.md'), 'utf8')).toBe('# card');
    const count = hub.requests.length;
    const again = await pullModel(`acme/tiny-nli@${COMMIT}`, { ...options, files: ['README.md'] });
    expect(again.alreadyInstalled).toBe(true);
    expect(hub.requests.length).toBe(count);
    // Offline, a file the cache lacks is not reported as present.
    const offline = await pullError(
      pullModel(`acme/tiny-nli@${COMMIT}`, { ...options, offline: true, files: ['onnx/model.onnx'] }),
    );
    expect(offline.code).toBe('offline');
    expect(offline.message).toContain('onnx/model.onnx');
  });

  it('pulls again a cached revision whose file was changed since, instead of calling it present', async () => {
    hub = await startFakeHub({ 'acme/tiny-nli': nliRepo() });
    const options = { cache, endpoint: hub.endpoint, env };
    const first = await pullModel(`acme/tiny-nli@${COMMIT}`, options);
    writeFileSync(path.join(first.model.dir, 'tokenizer.json'), '{}');
    const second = await pullModel(`acme/tiny-nli@${COMMIT}`, options);
    expect(second.alreadyInstalled).toBe(false);
    expect(readFileSync(path.join(second.model.dir, 'tokenizer.json'), 'utf8')).toBe('{"model":{}}');
  });

  it('leaves no empty revision behind when nothing could be downloaded', async () => {
    const curated = RECOMMENDED_MODELS.find((model) => model.name === 'nli-deberta-v3-xsmall')!;
    hub = await startFakeHub({ [curated.repo]: { commit: curated.revision!, files: {} } });
    const missing = await pullError(pullModel(curated.name, { cache, endpoint: hub.endpoint, env }));
    expect(missing.code).toBe('not_found');
    expect(cache.incomplete()).toEqual([]);
    expect(readdirSync(root)).toEqual([]);
  });

  it('explains a host name that does not resolve as a machine without network, with what to do', async () => {
    const error = await pullError(
      pullModel('acme/tiny-nli', { cache, endpoint: 'http://arbiter-no-such-host.invalid', env }),
    );
    expect(error.code).toBe('network');
    expect(error.reason).toMatch(/^cannot resolve arbiter-no-such-host\.invalid \((ENOTFOUND|EAI_AGAIN)\)$/);
    expect(error.message).toContain('this machine looks offline or has no DNS');
    expect(existsSync(root) ? readdirSync(root) : []).toEqual([]);
  });
});

describe('a model carried to a machine without network', () => {
  it('works from a copy of another cache’s revision directory, checked against its manifest', async () => {
    hub = await startFakeHub({ 'acme/tiny-nli': nliRepo() });
    const pulled = await pullModel(`acme/tiny-nli@${COMMIT}`, { cache, endpoint: hub.endpoint, env });
    // The recipe of docs/user-guide.md: copy <owner>--<name>/<commit>/ into the other cache.
    const otherRoot = mkdtempSync(path.join(os.tmpdir(), 'arbiter-airgapped-'));
    try {
      const other = new ModelCache(otherRoot);
      cpSync(path.join(root, 'acme--tiny-nli'), path.join(otherRoot, 'acme--tiny-nli'), { recursive: true });
      const found = await pullModel(`acme/tiny-nli@${COMMIT}`, {
        cache: other,
        env: { ARBITER_OFFLINE: '1' },
      });
      expect(found.alreadyInstalled).toBe(true);
      expect(found.model.manifest.files).toEqual(pulled.model.manifest.files);
      // A copy that lost a byte is not taken for the model.
      const weightsFile = path.join(found.model.dir, 'onnx', 'model_quantized.onnx');
      writeFileSync(weightsFile, readFileSync(weightsFile).subarray(1));
      const damaged = await pullError(
        pullModel(`acme/tiny-nli@${COMMIT}`, { cache: other, env: { ARBITER_OFFLINE: '1' } }),
      );
      expect(damaged.code).toBe('offline');
    } finally {
      rmSync(otherRoot, { recursive: true, force: true });
    }
  });
});
