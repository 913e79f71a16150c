import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualTaskClock } from '../support/manual-task-clock.js';
import {
  call,
  expectSchema,
  expectWellFormedStream,
  principalCalls,
  streamTask,
  until,
} from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

const key = TEST_KEYS.alice;
// Tasks' time stands still unless a test moves it: a task that sleeps is running for as long as
// the test needs it to be, and cannot finish on its own.
const clock = new ManualTaskClock();
let server: UhpTestServer;
const { post, get } = principalCalls(() => server.baseUrl, key);
beforeAll(async () => {
  server = await startUhpTestServer({ clock });
});
afterAll(() => server.close());

describe('continuation', () => {
  it('keeps the workspace, the conversation and the harness across turns', async () => {
    const first = await post({ input: '@write notes.txt <<<remember me>>>\n@say saved' });
    const second = await post({ input: '@read notes.txt\n@history', previous_response_id: first.json.id });
    expect(second.status).toBe(200);
    expect(second.json.previous_response_id).toBe(first.json.id);
    expect(second.json.metadata.session_id).toBe(first.json.metadata.session_id);
    expect(second.json.metadata.harness_id).toBe(first.json.metadata.harness_id);
    const toolOutput = second.json.output.find(
      (item: { type: string }) => item.type === 'function_call_output',
    );
    expect(toolOutput.output).toBe('remember me');
    expect(JSON.stringify(second.json.output)).toContain('Earlier turns: 1. Previous task: @write notes.txt');
    const turns = await get(`/v1/sessions/${first.json.metadata.session_id}/turns`);
    expect(turns.json.turns.map((turn: { response_id: string }) => turn.response_id)).toEqual([
      first.json.id,
      second.json.id,
    ]);
  });

  it('lets the model change per task within a session', async () => {
    const first = await post({ input: 'Reply with exactly: a' });
    const second = await post({
      input: 'Reply with exactly: b',
      previous_response_id: first.json.id,
      model: 'arbiter-offline',
    });
    expect(second.json.model).toBe('arbiter-offline');
  });

  it('refuses unknown previous responses, a different harness, and a busy session', async () => {
    const unknown = await post({ input: 'x', previous_response_id: 'resp_00000000000000000000000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('response_not_found');

    const first = await post({ input: 'Reply with exactly: a' });
    const other = await call(server.baseUrl, '/v1/harnesses', {
      method: 'POST',
      key,
      body: { name: 'other', base: 'agent' },
    });
    const mismatch = await post({
      input: 'x',
      previous_response_id: first.json.id,
      metadata: { harness_id: other.json.id },
    });
    expect(mismatch.status).toBe(409);
    expect(mismatch.json.error.code).toBe('harness_mismatch');

    const running = await post({
      input: '@sleep 400\n@say done',
      previous_response_id: first.json.id,
      background: true,
    });
    const busy = await post({ input: 'x', previous_response_id: running.json.id });
    expect(busy.status).toBe(409);
    expect(busy.json.error.code).toBe('session_busy');
    // Different sessions still run concurrently.
    const elsewhere = await post({ input: 'Reply with exactly: parallel' });
    expect(elsewhere.json.status).toBe('completed');
    await clock.advance(400);
    await until(async () => {
      const done = await get(`/v1/responses/${running.json.id}`);
      return done.json.status === 'completed' ? true : undefined;
    });
  });

  it('reports session_expired for a session past its retention', async () => {
    const shortClock = new ManualTaskClock();
    const short = await startUhpTestServer({ limits: { sessionRetentionMs: 150 }, clock: shortClock });
    try {
      const first = await call(short.baseUrl, '/v1/responses', {
        method: 'POST',
        key,
        body: { input: 'Reply with exactly: a' },
      });
      const kept = await call(short.baseUrl, '/v1/responses', {
        method: 'POST',
        key,
        body: { input: 'Reply with exactly: b', previous_response_id: first.json.id },
      });
      expect(kept.status).toBe(200);
      await shortClock.advance(250);
      const expired = await call(short.baseUrl, '/v1/responses', {
        method: 'POST',
        key,
        body: { input: 'x', previous_response_id: first.json.id },
      });
      expect(expired.status).toBe(404);
      expect(expired.json.error.code).toBe('session_expired');
    } finally {
      await short.close();
    }
  });
});

describe('listing and inspection', () => {
  it('pages with cursors and ends with next_cursor null, even on an exactly full page', async () => {
    const own = await startUhpTestServer();
    try {
      for (let index = 0; index < 4; index++) {
        await call(own.baseUrl, '/v1/responses', {
          method: 'POST',
          key,
          body: { input: `Reply with exactly: ${index}` },
        });
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await call(own.baseUrl, `/v1/sessions?limit=2${cursor ? `&cursor=${cursor}` : ''}`, {
          key,
        });
        expectSchema(page.json, 'SessionList');
        for (const session of page.json.sessions) expectSchema(session, 'Session');
        seen.push(...page.json.sessions.map((session: { id: string }) => session.id));
        cursor = page.json.next_cursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(2);
      expect(new Set(seen).size).toBe(4);
      const bad = await call(own.baseUrl, '/v1/sessions?cursor=garbage', { key });
      expect(bad.status).toBe(400);
      const session = await call(own.baseUrl, `/v1/sessions/${seen[0]}`, { key });
      expect(session.json).toMatchObject({ id: seen[0], object: 'session', status: 'idle', turn_count: 1 });
    } finally {
      await own.close();
    }
  });
});

describe('cancellation', () => {
  it('cancels a running task at once, keeps partial output and the session continuable', async () => {
    const started = await post({ input: '@say partial text\n@sleep 30000\n@say never', background: true });
    await until(async () => {
      const result = await get(`/v1/responses/${started.json.id}`);
      return JSON.stringify(result.json.output).includes('partial text') ? true : undefined;
    });
    // The task sleeps for 30 s of a clock that does not move: a cancel that waited for it to end
    // would never answer.
    const cancelled = await call(server.baseUrl, `/v1/responses/${started.json.id}/cancel`, {
      method: 'POST',
      key,
    });
    expect(cancelled.json.status).toBe('cancelled');
    expect(cancelled.json.error).toBeNull();
    const again = await call(server.baseUrl, `/v1/responses/${started.json.id}/cancel`, {
      method: 'POST',
      key,
    });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(cancelled.json);
    const next = await post({
      input: 'Reply with exactly: still here',
      previous_response_id: started.json.id,
    });
    expect(next.json.status).toBe('completed');
  });

  it('ends a cancelled stream with response.failed carrying status cancelled', async () => {
    let responseId = '';
    const { events } = await streamTask(
      server.baseUrl,
      key,
      { input: '@say streaming\n@sleep 30000' },
      {
        onEvent(event) {
          if (event.data.type === 'response.created') responseId = event.data.response.id;
          if (event.data.type === 'response.output_text.delta')
            void call(server.baseUrl, `/v1/responses/${responseId}/cancel`, { method: 'POST', key });
        },
      },
    );
    expectWellFormedStream(events);
    expect(events.at(-1)!.data.type).toBe('response.failed');
    expect(events.at(-1)!.data.response.status).toBe('cancelled');
  });

  it('cancels whatever runs in a session through the session scope', async () => {
    const started = await post({ input: '@sleep 30000', background: true });
    const session = started.json.metadata.session_id;
    const result = await call(server.baseUrl, `/v1/sessions/${session}/cancel`, { method: 'POST', key });
    expect(result.status).toBe(200);
    expect((await get(`/v1/responses/${started.json.id}`)).json.status).toBe('cancelled');
    const idle = await call(server.baseUrl, `/v1/sessions/${session}/cancel`, { method: 'POST', key });
    expect(idle.status).toBe(200);
  });

  it('settles a cancel racing completion into exactly one terminal state', async () => {
    for (let round = 0; round < 10; round++) {
      const started = await post({ input: '@say quick', background: true });
      const cancel = await call(server.baseUrl, `/v1/responses/${started.json.id}/cancel`, {
        method: 'POST',
        key,
      });
      expect(['completed', 'cancelled', 'in_progress']).toContain(cancel.json.status);
      const final = await until(async () => {
        const result = await get(`/v1/responses/${started.json.id}?stream=true`);
        return result.text.includes('"response.') ? result : undefined;
      });
      const terminals = final.text.match(/"type":"response\.(completed|failed|incomplete)"/g) ?? [];
      expect(terminals).toHaveLength(1);
      const stored = await get(`/v1/responses/${started.json.id}`);
      expect(['completed', 'cancelled']).toContain(stored.json.status);
    }
  });
});

describe('deletion', () => {
  it('cancels in-flight work first, then leaves nothing readable', async () => {
    const first = await post({ input: '@write out.txt <<<data>>>' });
    const running = await post({
      input: '@sleep 30000',
      previous_response_id: first.json.id,
      background: true,
    });
    const session = first.json.metadata.session_id;
    const files = await get(`/v1/sessions/${session}/files`);
    const file = files.json.files[0];
    const deleted = await call(server.baseUrl, `/v1/traces/${session}`, { method: 'DELETE', key });
    expect(deleted.json).toMatchObject({ id: session, deleted: true });
    for (const route of [
      `/v1/sessions/${session}`,
      `/v1/sessions/${session}/turns`,
      `/v1/sessions/${session}/files`,
      `/v1/responses/${first.json.id}`,
      `/v1/responses/${running.json.id}`,
      `/v1/containers/${file.container_id}/files/${file.id}/content`,
    ]) {
      expect((await get(route)).status, route).toBe(404);
    }
    const continued = await post({ input: 'x', previous_response_id: first.json.id });
    expect(continued.status).toBe(404);
  });
});

describe('sharing', () => {
  it('publishes a read-only, revocable view without credentials or internals', async () => {
    const task = await post({ input: 'Reply with exactly: <b>shared</b>' });
    const session = task.json.metadata.session_id;
    expect((await get(`/v1/sessions/${session}/share`)).status).toBe(404);
    const share = await call(server.baseUrl, `/v1/sessions/${session}/share`, { method: 'POST', key });
    expect(share.json).toMatchObject({ session_id: session, read_only: true });
    expect((await get(`/v1/sessions/${session}/share`)).json.token).toBe(share.json.token);
    const html = await fetch(share.json.url);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const page = await html.text();
    expect(page).toContain('&#60;b&#62;shared&#60;/b&#62;');
    expect(page).not.toContain('<b>shared');
    expect(page).not.toContain(key);
    expect(page).not.toContain('chrn_');
    const json = await fetch(share.json.url, { headers: { accept: 'application/json' } });
    expect(((await json.json()) as { turns: unknown[] }).turns).toHaveLength(1);
    // Nothing mutating is reachable through the token.
    const write = await fetch(share.json.url, { method: 'POST' });
    expect([401, 404]).toContain(write.status);
    const revoked = await call(server.baseUrl, `/v1/sessions/${session}/share`, { method: 'DELETE', key });
    expect(revoked.json.revoked).toBe(true);
    expect((await fetch(share.json.url)).status).toBe(404);
  });
});
