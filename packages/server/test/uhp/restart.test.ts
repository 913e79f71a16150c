import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { killOwned, type ServerProcess, spawnServerProcess } from '../fixtures/spawn-server-process.js';
import { call, expectWellFormedStream, readEvents, until } from '../support/uhp-test-client.js';
import { TEST_KEYS } from '../support/uhp-test-server.js';

const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'uhp-server-entry.ts');
const key = TEST_KEYS.alice;
const children: ChildProcess[] = [];
const dataDirs: string[] = [];

/** A real server process (tsx on the sources), so the test can kill it without any cleanup running. */
async function spawnServer(dataDir: string): Promise<ServerProcess> {
  return spawnServerProcess(entry, [dataDir, '0', '10'], children);
}

afterEach(async () => {
  await killOwned(children);
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('restart safety', () => {
  it('after kill -9 mid-task, ends the interrupted response failed with its events and partial output intact', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-uhp-restart-'));
    dataDirs.push(dataDir);
    const first = await spawnServer(dataDir);
    const done = await call(first.baseUrl, '/v1/responses', {
      method: 'POST',
      key,
      body: { input: '@write kept.txt <<<kept>>>' },
    });
    expect(done.json.status).toBe('completed');
    const running = await call(first.baseUrl, '/v1/responses', {
      method: 'POST',
      key,
      body: {
        input: '@say partial words here\n@sleep 60000\n@say never',
        previous_response_id: done.json.id,
        background: true,
      },
    });
    await until(async () => {
      const result = await call(first.baseUrl, `/v1/responses/${running.json.id}`, { key });
      return JSON.stringify(result.json.output).includes('partial words here') ? true : undefined;
    });
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await spawnServer(dataDir);
    const recovered = await call(second.baseUrl, `/v1/responses/${running.json.id}`, { key });
    expect(recovered.json.status).toBe('failed');
    expect(recovered.json.error).toMatchObject({ code: 'arbiter_interrupted' });
    expect(recovered.json.error.message).not.toMatch(/\/|Error/);
    expect(JSON.stringify(recovered.json.output)).toContain('partial words here');
    expect(JSON.stringify(recovered.json.output)).not.toContain('never');

    const replay = await fetch(`${second.baseUrl}/v1/responses/${running.json.id}?stream=true`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const { events } = await readEvents(replay, performance.now());
    expectWellFormedStream(events);
    expect(events.at(-1)!.data.response).toEqual(recovered.json);

    // Nothing else was lost, and the session goes on.
    expect((await call(second.baseUrl, `/v1/responses/${done.json.id}`, { key })).json).toEqual(done.json);
    const files = await call(second.baseUrl, `/v1/sessions/${done.json.metadata.session_id}/files`, { key });
    expect(files.json.files.map((file: { filename: string }) => file.filename)).toEqual(['kept.txt']);
    const next = await call(second.baseUrl, '/v1/responses', {
      method: 'POST',
      key,
      body: { input: '@read kept.txt', previous_response_id: running.json.id },
    });
    expect(next.json.status).toBe('completed');
    expect(JSON.stringify(next.json.output)).toContain('"output":"kept"');
  });
});
