import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, serversOnBackends } from '../support/servers-on-backends.js';

// `GET /api/harness/v1/sessions` pages with `cursor` or `after` (a session id) over real HTTP, on a
// real `arbiter serve` with each storage backend.
const servers = serversOnBackends('arbiter-session-listing');
beforeAll(() => servers.start());
afterAll(() => servers.stop());

interface Page {
  sessions: { id: string }[];
  next_cursor: string | null;
}

describe.each(BACKENDS)('listing sessions (%s)', (backend) => {
  it('pages with after as with cursor, newest first, each session once; refuses a foreign or unknown after', async () => {
    const { server } = await servers.serve(backend, { harness: { offlineChunkDelayMs: 0 } });
    const admin = server.initialKey ?? '';
    const created = await fetch(`${server.url}/v1/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ principal: 'other' }),
    });
    const other = ((await created.json()) as { key: string }).key;
    const call = async (key: string, query: string) => {
      const response = await fetch(`${server.url}/api/harness/v1/sessions${query}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      return {
        status: response.status,
        json: (await response.json()) as Page & {
          error: { code: string; param: string | null; message: string };
        },
      };
    };
    for (let index = 0; index < 5; index++) {
      const response = await fetch(`${server.url}/api/harness/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: `@say ${index}` }),
      });
      expect(response.status).toBe(200);
    }
    const whole = (await call(admin, '?limit=100')).json;
    expect(whole.sessions).toHaveLength(5);

    // Each page starts after the last session of the one before, named by its id.
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: Page = (await call(admin, `?limit=2${after ? `&after=${after}` : ''}`)).json;
      seen.push(...page.sessions.map((session) => session.id));
      after = page.next_cursor === null ? null : (page.sessions.at(-1)?.id ?? null);
    } while (after !== null);
    expect(seen).toEqual(whole.sessions.map((session) => session.id));
    // The same page as the cursor gives.
    const byCursor = (await call(admin, '?limit=2')).json;
    const nextByCursor = (await call(admin, `?limit=2&cursor=${byCursor.next_cursor}`)).json;
    const nextByAfter = (await call(admin, `?limit=2&after=${byCursor.sessions[1]!.id}`)).json;
    expect(nextByAfter).toEqual(nextByCursor);

    // Another principal cannot page from (or learn of) this principal's session.
    const foreign = await call(other, `?after=${whole.sessions[0]!.id}`);
    expect(foreign.status).toBe(400);
    expect(foreign.json.error).toMatchObject({ code: 'invalid_input', param: 'after' });
    expect((await call(admin, '?after=hsess_unknown')).json.error.message).toBe(
      'after names none of your sessions.',
    );
    const both = await call(admin, `?after=${whole.sessions[0]!.id}&cursor=${byCursor.next_cursor}`);
    expect(both.status).toBe(400);
    expect(both.json.error.param).toBe('after');
  });
});
