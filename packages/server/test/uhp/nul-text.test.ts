import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectRegisteredCode, principalCalls } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

// PostgreSQL's text cannot hold U+0000 and its driver fails the statement, so a NUL once gave a
// 500 there and a 200 on SQLite. Both backends now refuse it the same way; this file runs on each
// (`ARBITER_UHP_TEST_TARGET=postgres-pair` for PostgreSQL, as the UHP suite does).
const key = TEST_KEYS.alice;
let server: UhpTestServer;
const { post } = principalCalls(() => server.baseUrl, key);
beforeAll(async () => {
  server = await startUhpTestServer();
});
afterAll(() => server.close());

const NUL_MESSAGE = /contains a NUL character \(U\+0000\)/;

describe('a NUL character in text the server would store', () => {
  it('is a 400 naming it, for a task input and a harness name, on either backend', async () => {
    const task = await post({ input: '@say a\u0000b' });
    const harness = await call(server.baseUrl, '/v1/harnesses', {
      method: 'POST',
      key,
      body: { name: 'x\u0000y', base: 'agent' },
    });
    for (const answer of [task, harness]) {
      expect(answer.status).toBe(400);
      expectRegisteredCode(answer.json.error.code, 400);
      expect(answer.json.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_input' });
      expect(answer.json.error.message).toMatch(NUL_MESSAGE);
    }
  });

  it('in an id of a path is not found, and inside JSON metadata is stored as JSON (escaped)', async () => {
    for (const path of ['/v1/sessions/hsess_a%00b', '/v1/responses/resp_a%00b']) {
      expect((await call(server.baseUrl, path, { key })).status, path).toBe(404);
    }
    const stored = await post({ input: '@say hi', metadata: { note: 'a\u0000b' } });
    expect(stored.status).toBe(200);
    expect(stored.json.metadata.note).toBe('a\u0000b');
    // The server goes on serving.
    expect((await post({ input: '@say hi' })).json.status).toBe('completed');
  });
});
