import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UhpApiError, UhpClient, type UhpClientEvent } from '../src/index.js';
import { type ArbiterUhpServer, startArbiterUhpServer } from './support/arbiter-uhp-server.js';

const KEY = 'uhp-client-test-key-alice-000000000';
const OTHER_KEY = 'uhp-client-test-key-bob-00000000000';
let server: ArbiterUhpServer;
let client: UhpClient;

beforeAll(async () => {
  server = await startArbiterUhpServer([KEY, OTHER_KEY], { offlineChunkDelayMs: 2 });
  client = new UhpClient({ baseURL: server.baseURL, apiKey: KEY });
});
afterAll(() => server.close());

async function collect(stream: AsyncIterable<UhpClientEvent>): Promise<UhpClientEvent[]> {
  const events: UhpClientEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const textOf = (events: UhpClientEvent[]) =>
  events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('');

describe("UhpClient against Arbiter's UHP server", () => {
  it('connects: discovery, full class with every capability, and the default harness', async () => {
    const { discovery, harnesses, authenticated } = await client.connect();
    expect(discovery).toMatchObject({
      protocol: 'uhp',
      conformance_class: 'full',
      default_version: '2026-08-11',
    });
    expect(Object.values(discovery.capabilities).every(Boolean)).toBe(true);
    expect(harnesses.length).toBeGreaterThan(0);
    expect(authenticated).toBe(true);
  });

  it('streams reasoning, a tool call and its result, text, a produced file and usage', async () => {
    const stream = await client.responses.stream({
      input: '@think plan the file\n@write notes/a.txt <<<hello from the agent>>>\n@say wrote it',
    });
    const events = await collect(stream);
    const done = events.at(-1);
    expect(done?.type).toBe('done');
    if (done?.type !== 'done') return;
    expect(done.response.status).toBe('completed');
    const types = new Set(events.map((event) => event.type));
    for (const type of [
      'status',
      'reasoning-delta',
      'tool-call',
      'tool-result',
      'text-delta',
      'file-produced',
    ]) {
      expect(types).toContain(type);
    }
    expect(types).not.toContain('sequence-gap');
    expect(events).toContainEqual(expect.objectContaining({ type: 'tool-call', name: 'write' }));
    // The streamed text is exactly what the server stored.
    const stored = await client.responses.retrieve(done.response.id);
    const storedText = stored.output
      .flatMap((item) =>
        item.type === 'message' && 'content' in item ? (item.content as { text: string }[]) : [],
      )
      .map((part) => part.text)
      .join('');
    expect(textOf(events)).toBe(storedText);
    const usage = events.find((event) => event.type === 'usage');
    expect(usage).toMatchObject({ usage: { total_tokens: expect.any(Number) } });

    const file = events.find((event) => event.type === 'file-produced');
    if (file?.type !== 'file-produced') throw new Error('no file produced');
    const content = await client.containers.content(file.file.containerId, file.file.fileId);
    expect(await content.text()).toBe('hello from the agent');
    const sessionId = done.response.metadata?.session_id ?? '';
    expect((await client.sessions.files(sessionId)).map((listed) => listed.id)).toContain(file.file.fileId);
  });

  it('continues a session and recovers the thread from the server listing and turns', async () => {
    const first = await client.responses.create({ input: 'Reply with exactly: one' });
    const second = await client.responses.create({ input: '@history', previous_response_id: first.id });
    expect(second.metadata?.session_id).toBe(first.metadata?.session_id);
    const sessionId = first.metadata?.session_id ?? '';
    const listed = [];
    for await (const session of client.sessions.listAll({ limit: 1 })) listed.push(session.id);
    expect(listed).toContain(sessionId);
    const turns = await client.sessions.turns(sessionId);
    expect(turns.map((turn) => turn.response_id)).toEqual([first.id, second.id]);
  });

  it('cancels the task on the server when the signal aborts', async () => {
    const controller = new AbortController();
    const stream = await client.responses.stream(
      { input: '@say starting\n@sleep 20000\n@say never' },
      {
        signal: controller.signal,
      },
    );
    let responseId = '';
    const consumed = (async () => {
      for await (const event of stream) {
        if (event.type === 'status') responseId = event.responseId;
        if (event.type === 'text-delta') controller.abort(new Error('stop'));
      }
    })();
    await expect(consumed).rejects.toThrow('stop');
    const stored = await client.responses.retrieve(responseId);
    expect(stored.status).toBe('cancelled');
  });

  it('creates with an abort signal by streaming underneath, so the result is the same response', async () => {
    const response = await client.responses.create(
      { input: 'Reply with exactly: streamed' },
      { signal: new AbortController().signal },
    );
    expect(response.status).toBe('completed');
    expect(JSON.stringify(response.output)).toContain('streamed');
  });

  it('types refusals: unknown harness, objects of another principal, a bad key', async () => {
    await expect(
      client.responses.create({ input: 'x', metadata: { harness_id: 'chrn_doesnotexist' } }),
    ).rejects.toMatchObject({ status: 404, code: 'harness_not_found', type: 'invalid_request_error' });

    const mine = await client.responses.create({ input: 'Reply with exactly: private' });
    const other = new UhpClient({ baseURL: server.baseURL, apiKey: OTHER_KEY });
    await expect(other.responses.retrieve(mine.id)).rejects.toMatchObject({ status: 404 });

    const stranger = new UhpClient({ baseURL: server.baseURL, apiKey: 'not-a-key' });
    const error = await stranger.harnesses.list().catch((caught: unknown) => caught);
    expect(UhpApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 401, type: 'authentication_error' });
    expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain('not-a-key');
  });
});

describe('every resource against the real server', () => {
  it('manages harnesses and reads models', async () => {
    const created = await client.harnesses.create({ name: 'temp', base: 'agent' });
    expect(created.id).toMatch(/^chrn_/);
    const updated = await client.harnesses.update(created.id, { name: 'renamed', base: 'agent' });
    expect(updated).toMatchObject({ id: created.id, name: 'renamed' });
    expect((await client.harnesses.retrieve(created.id)).name).toBe('renamed');
    const models = await client.harnesses.models(created.id);
    expect(models.models.map((model) => model.id)).toContain('arbiter-offline');
    const catalog = await client.models.list();
    expect(Object.keys(catalog.backends).length).toBeGreaterThan(0);
    await client.harnesses.delete(created.id);
    await expect(client.harnesses.retrieve(created.id)).rejects.toMatchObject({ code: 'harness_not_found' });
    await expect(client.harnesses.create({ name: 'x', base: 'no-such-base' })).rejects.toMatchObject({
      status: 422,
      code: 'unsupported_base',
    });
  });

  it('reads input items, shares, archives, cancels and deletes', async () => {
    const response = await client.responses.create({ input: '@write a.txt <<<archived>>>' });
    const sessionId = response.metadata?.session_id ?? '';
    const input = await client.responses.inputItems(response.id);
    expect(input.data.length).toBeGreaterThan(0);

    const share = await client.sessions.share(sessionId);
    expect(share).toMatchObject({ session_id: sessionId, url: expect.stringContaining('/v1/shared/') });
    expect((await client.sessions.retrieveShare(sessionId)).url).toBe(share.url);
    await client.sessions.revokeShare(sessionId);
    const shared = await fetch(share.url ?? '');
    expect(shared.status).toBe(404); // revoked: the read-only view is gone

    const archive = await client.sessions.archive(sessionId);
    expect(archive.headers.get('content-type')).toContain('zip');
    const bytes = new Uint8Array(await archive.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x50, 0x4b]); // "PK": a zip archive

    // Cancelling a finished task succeeds and changes nothing.
    expect((await client.responses.cancel(response.id)).status).toBe('completed');
    await client.sessions.cancel(sessionId);
    await client.sessions.delete(sessionId);
    await expect(client.sessions.retrieve(sessionId)).rejects.toMatchObject({ status: 404 });
  });

  it('follows a harness event feed while a task runs', async () => {
    const [harness] = await client.harnesses.list();
    const controller = new AbortController();
    const feed = client.harnesses.events(harness?.id ?? '', { signal: controller.signal });
    const first = feed.next();
    const task = client.responses.create({
      input: 'Reply with exactly: fed',
      metadata: { harness_id: harness?.id },
    });
    const event = await first;
    expect(event.done).toBe(false);
    expect(event.value).toEqual(expect.objectContaining({ type: expect.any(String) }));
    controller.abort();
    await feed.return(undefined);
    await task;
  });
});
