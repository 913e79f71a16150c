import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createKeyAuthenticator } from '@arbiter/auth';
import { ModelCatalog } from '@arbiter/engine';
import { openDatabase, SqliteDatabase } from '@arbiter/storage';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { KeyStore } from '../../src/auth/key-store.js';
import { servedPackAnalysers } from '../../src/served-pack-analysers.js';
import { migrations } from '../../src/storage/migrations.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function temporaryDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function app(
  consoleOption?: false | { root: string },
  limits?: { requestsPerMinute: number },
): Promise<{ app: FastifyInstance; key: string }> {
  const db = openDatabase(temporaryDir('arbiter-console-routes-'), migrations);
  const keys = await KeyStore.open(new SqliteDatabase(db));
  const { key } = await keys.create('tester');
  const built = await buildApp({
    catalog: new ModelCatalog({ analysers: servedPackAnalysers() }),
    authenticator: createKeyAuthenticator(keys),
    ...(consoleOption === undefined ? {} : { console: consoleOption }),
    ...(limits ? { limits } : {}),
  });
  cleanups.push(async () => {
    await built.close();
    db.close();
  });
  return { app: built, key };
}

describe('the console routes', () => {
  it('answers 404 naming the build command when the console was not built', async () => {
    const { app: server } = await app({ root: temporaryDir('arbiter-console-empty-') });
    const response = await server.inject({ method: 'GET', url: '/console/' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toMatchObject({ code: 'not_found' });
    expect(response.json().error.message).toContain('npm run build -w @arbiter/console');
  });

  it('serves a build from its root and nothing outside it', async () => {
    const root = temporaryDir('arbiter-console-build-');
    fs.mkdirSync(path.join(root, 'assets'));
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>shell</title>');
    fs.writeFileSync(path.join(root, 'assets/app-abc123.js'), 'export {};');
    fs.writeFileSync(
      path.join(path.dirname(root), `${path.basename(root)}-secret.txt`),
      'TOP-SECRET-CONTENT',
    );
    cleanups.push(() => fs.rmSync(`${root}-secret.txt`, { force: true }));
    const { app: server } = await app({ root });
    const asset = await server.inject({ method: 'GET', url: '/console/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-security-policy']).toContain("default-src 'none'");
    for (const url of [
      `/console/assets/..%2f..%2f${path.basename(root)}-secret.txt`,
      `/console/assets/../../${path.basename(root)}-secret.txt`,
      `/console/assets/%2e%2e/%2e%2e/${path.basename(root)}-secret.txt`,
      `/console/%2e%2e/${path.basename(root)}-secret.txt`,
    ]) {
      // At most the shell (a climbing path is still a page path), never the file beside the build.
      const response = await server.inject({ method: 'GET', url });
      expect(response.body, url).not.toContain('TOP-SECRET-CONTENT');
      if (response.statusCode === 200) expect(response.body, url).toContain('<title>shell</title>');
    }
    const deep = await server.inject({ method: 'GET', url: '/console/gate?x=1' });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('shell');
    expect((await server.inject({ method: 'GET', url: '/console/assets/nope.js' })).statusCode).toBe(404);
  });

  it('leaves /console out with console: false', async () => {
    const { app: server } = await app(false);
    expect((await server.inject({ method: 'GET', url: '/console/' })).statusCode).toBe(404);
    expect((await server.inject({ method: 'GET', url: '/console/' })).json().error.message).not.toContain(
      'build',
    );
  });
});

describe('POST /v1/gate/check', () => {
  it('needs a key, names a wrong state member, and returns the verdict record', async () => {
    const { app: server, key } = await app(false);
    const call = {
      tool: 'Bash',
      arguments: { command: 'rm -rf ~/' },
      grant: ['Bash'],
      task: 'fix the tests',
    };
    const anonymous = await server.inject({ method: 'POST', url: '/v1/gate/check', payload: call });
    expect(anonymous.statusCode).toBe(401);
    const headers = { authorization: `Bearer ${key}` };
    const wrong = await server.inject({
      method: 'POST',
      url: '/v1/gate/check',
      headers,
      payload: { ...call, grant: 'Bash' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'invalid_request', param: 'grant' });
    const unknownModel = await server.inject({
      method: 'POST',
      url: '/v1/gate/check',
      headers,
      payload: { ...call, model: 'no-such-model' },
    });
    expect(unknownModel.statusCode).toBe(404);
    const judged = await server.inject({ method: 'POST', url: '/v1/gate/check', headers, payload: call });
    expect(judged.statusCode).toBe(200);
    const verdict = judged.json();
    expect(verdict).toMatchObject({ effective: 'DENY', decided_by: 'gate', tool: 'Bash', skipped: false });
    expect(Object.keys(verdict.answers)).toHaveLength(6);
    // The record carries the call's hash, never its arguments.
    expect(judged.body).not.toContain('rm -rf');
    const harmless = await server.inject({
      method: 'POST',
      url: '/v1/gate/check',
      headers,
      payload: { ...call, arguments: { command: 'ls -la' } },
    });
    expect(harmless.json()).toMatchObject({ effective: 'ALLOW' });
  });

  it('shares the per-principal rate limit with the decisions', async () => {
    const { app: server, key } = await app(false, { requestsPerMinute: 2 });
    const headers = { authorization: `Bearer ${key}` };
    const decision = { state: 'a state', questions: { q: { type: 'noul', instructions: 'Is it?' } } };
    for (let i = 0; i < 2; i++)
      expect(
        (await server.inject({ method: 'POST', url: '/v1/decision', headers, payload: decision })).statusCode,
      ).toBe(200);
    const check = await server.inject({
      method: 'POST',
      url: '/v1/gate/check',
      headers,
      payload: { tool: 'Bash', arguments: { command: 'ls' } },
    });
    expect(check.statusCode).toBe(429);
    expect(check.json().error.code).toBe('rate_limited');
  });
});
