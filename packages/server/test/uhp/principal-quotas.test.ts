import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverConfigSchema } from '../../src/config/server-config.js';
import { startTestServer } from '../robustness/start-test-server.js';
import { quotaPrincipals } from '../support/quota-principals.js';

// `arbiter serve` with a quota of two tasks running at once per principal.
let server: Awaited<ReturnType<typeof startTestServer>>;
let principals: ReturnType<typeof quotaPrincipals>;
let other: string;

beforeAll(async () => {
  server = await startTestServer({
    config: serverConfigSchema.parse({ limits: { concurrentTasksPerPrincipal: 2 } }),
    harness: { offlineChunkDelayMs: 0 },
  });
  principals = quotaPrincipals(server, server.key);
  other = await principals.keyFor('other');
});
afterAll(() => server.cleanup());

const start = (key: string, input: string) => principals.task(key, input, { background: true });

describe('the quota of tasks a principal runs at once', () => {
  it('refuses the task past it with 429 quota_exhausted naming the quota, and only for that principal', async () => {
    const first = await start(server.key, '@sleep 600000');
    const second = await start(server.key, '@sleep 600000');
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await start(server.key, '@say one more');
    expect(third.status).toBe(429);
    expect(third.body.error).toMatchObject({
      type: 'rate_limit_error',
      code: 'quota_exhausted',
      detail: { quota: 'concurrent_tasks', limit: 2 },
    });
    expect(third.body.error?.message).toMatch(/already runs 2 tasks at once/);
    // Another principal's work is not counted against it.
    expect((await start(other, '@say mine')).status).toBe(200);
    // A task that ends frees its place.
    const cancel = await fetch(`${server.url}/api/harness/v1/responses/${first.body.id}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}` },
    });
    expect(cancel.status).toBe(200);
    expect((await start(server.key, '@say now there is room')).status).toBe(200);
    await fetch(`${server.url}/api/harness/v1/responses/${second.body.id}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}` },
    });
  });
});
