import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrepaidBudgets } from '@arbiter/harness-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PRICING, UNIT } from '../billing/fixtures/test-pricing.js';
import { killOwned, spawnServerProcess } from '../fixtures/spawn-server-process.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../fixtures/throwaway-postgres.js';
import {
  type ArrivedEvent,
  call,
  expectWellFormedStream,
  readEvents,
  until,
} from '../support/uhp-test-client.js';
import { TEST_KEYS } from '../support/uhp-test-server.js';
import { type ClusterNode, startClusterNode } from './fixtures/cluster-node.js';
import { roundRobin } from './fixtures/round-robin-proxy.js';

const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'cluster-node-entry.ts');
const key = TEST_KEYS.alice;

let cluster: ThrowawayPostgres;
const nodes: ClusterNode[] = [];
const children: ChildProcess[] = [];
const dirs: string[] = [];
beforeAll(async () => {
  cluster = await startThrowawayPostgres();
});
afterEach(async () => {
  await killOwned(children);
  for (const node of nodes.splice(0)) await node.close();
});
afterAll(async () => {
  await cluster?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A database and a shared data directory, as a deployment of several nodes has them. */
async function sharedStorage() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-cluster-'));
  dirs.push(dataDir);
  return { database: await cluster.createDatabase(), dataDir };
}

async function node(options: Parameters<typeof startClusterNode>[0]): Promise<ClusterNode> {
  const started = await startClusterNode(options);
  nodes.push(started);
  return started;
}

/**
 * Reads until the streamed output text contains `text`. Deltas arrive in pieces and `stopWhen` sees
 * only the last event of each chunk read, so the text is gathered by `onEvent`.
 */
function untilText(text: string) {
  let seen = '';
  return {
    onEvent(event: { data: { type: string; delta?: string } }) {
      if (event.data.type === 'response.output_text.delta') seen += event.data.delta ?? '';
    },
    stopWhen: () => seen.includes(text),
  };
}

function stream(baseUrl: string, responseId: string, lastEventId?: number) {
  return fetch(`${baseUrl}/v1/responses/${responseId}?stream=true`, {
    headers: {
      authorization: `Bearer ${key}`,
      ...(lastEventId !== undefined ? { 'last-event-id': String(lastEventId) } : {}),
    },
  });
}

describe('two nodes on one PostgreSQL database', () => {
  it('a task created on A is streamed, resumed with Last-Event-ID and cancelled through B', async () => {
    const storage = await sharedStorage();
    const a = await node({ ...storage, chunkDelayMs: 5, cluster: { nodeId: 'node-a' } });
    const b = await node({ ...storage, chunkDelayMs: 5, cluster: { nodeId: 'node-b' } });
    const created = await call(a.baseUrl, '/v1/responses', {
      method: 'POST',
      key,
      body: { input: '@say first words\n@sleep 60000\n@say never', background: true },
    });
    expect(created.status).toBe(200);
    const id = created.json.id as string;

    // B follows A's task live: its events reach B through the database, not through A.
    const first = await readEvents(await stream(b.baseUrl, id), performance.now(), {
      ...untilText('first words'),
    });
    const lastSeen = first.events.at(-1)!.data.sequence_number as number;
    expect(lastSeen).toBeGreaterThan(1);

    // Resumed through B after the last event it delivered, while B cancels the task A runs.
    const resumed = stream(b.baseUrl, id, lastSeen);
    const cancelled = await call(b.baseUrl, `/v1/responses/${id}/cancel`, { method: 'POST', key });
    expect(cancelled.json.status).toBe('cancelled');
    const rest = await readEvents(await resumed, performance.now());
    expect(rest.events[0]!.data.sequence_number).toBe(lastSeen + 1);
    const all = [...first.events, ...rest.events];
    expectWellFormedStream(all);
    expect(all.at(-1)!.data.response.status).toBe('cancelled');
    expect(JSON.stringify(all)).not.toContain('never');
    // A, which ran it, answers the same final state.
    expect((await call(a.baseUrl, `/v1/responses/${id}`, { key })).json).toEqual(cancelled.json);

    // The session goes on through B, which runs the next task itself, with A's turn in its history.
    const continued = await call(b.baseUrl, '/v1/responses', {
      method: 'POST',
      key,
      body: { input: '@history', previous_response_id: id },
    });
    expect(continued.json.status).toBe('completed');
    expect(continued.json.metadata.session_id).toBe(cancelled.json.metadata.session_id);
    expect(JSON.stringify(continued.json.output)).toContain('first words');
  });

  it('a cancellation whose notification is lost still reaches the running node, by its heartbeat', async () => {
    const storage = await sharedStorage();
    const a = await node({ ...storage, chunkDelayMs: 5, cluster: { nodeId: 'node-a', heartbeatMs: 20 } });
    const b = await node({ ...storage, cluster: { nodeId: 'node-b' } });
    const created = await call(a.baseUrl, '/v1/responses', {
      method: 'POST',
      key,
      body: { input: '@say first words\n@sleep 60000\n@say never', background: true },
    });
    const id = created.json.id as string;
    const first = await readEvents(await stream(b.baseUrl, id), performance.now(), untilText('first words'));
    const resumed = stream(b.baseUrl, id, first.events.at(-1)!.data.sequence_number);
    // What `cancel` records before it notifies; no notification follows here.
    expect(
      await b.db.run('UPDATE uhp_task_leases SET cancel_requested = 1 WHERE response_id = ?', [id]),
    ).toBe(1);
    const rest = await readEvents(await resumed, performance.now());
    expect(rest.events.at(-1)!.data.response.status).toBe('cancelled');
    expect(await a.db.all('SELECT 1 FROM uhp_task_leases')).toEqual([]);
  });

  it('behind a round-robin proxy, a session lives across nodes: stream, continue, files, turns, share, delete', async () => {
    const storage = await sharedStorage();
    const a = await node({ ...storage, cluster: { nodeId: 'node-a' } });
    const b = await node({ ...storage, cluster: { nodeId: 'node-b' } });
    const proxy = await roundRobin([a, b]);
    try {
      const base = proxy.baseUrl;
      const streamed = await fetch(`${base}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: '@write notes.txt <<<from the first node>>>', stream: true }),
      });
      const { events } = await readEvents(streamed, performance.now());
      expectWellFormedStream(events);
      const first = events.at(-1)!.data.response;
      expect(first.status).toBe('completed');

      const form = new FormData();
      form.append('file', new Blob([new TextEncoder().encode('uploaded bytes')]), 'upload.txt');
      const uploaded = await call(base, '/v1/files', { method: 'POST', key, raw: form });
      expect((await call(base, `/v1/files/${uploaded.json.id}`, { key })).json.filename).toBe('upload.txt');
      const second = await call(base, '/v1/responses', {
        method: 'POST',
        key,
        body: {
          previous_response_id: first.id,
          input: [
            {
              role: 'user',
              content: [
                { type: 'input_text', text: '@read notes.txt\n@read upload.txt' },
                { type: 'input_file', file_id: uploaded.json.id },
              ],
            },
          ],
        },
      });
      expect(second.json.status).toBe('completed');
      expect(JSON.stringify(second.json.output)).toContain('from the first node');
      expect(JSON.stringify(second.json.output)).toContain('uploaded bytes');

      const session = first.metadata.session_id as string;
      const turns = await call(base, `/v1/sessions/${session}/turns`, { key });
      expect(turns.json.turns.map((turn: { response_id: string }) => turn.response_id)).toEqual([
        first.id,
        second.json.id,
      ]);
      const files = await call(base, `/v1/sessions/${session}/files`, { key });
      const notes = files.json.files.find((file: { filename: string }) => file.filename === 'notes.txt');
      const download = await fetch(
        `${base}/v1/containers/${first.metadata.container_id}/files/${notes.id}/content`,
        {
          headers: { authorization: `Bearer ${key}` },
        },
      );
      expect(await download.text()).toBe('from the first node');
      const share = await call(base, `/v1/sessions/${session}/share`, { method: 'POST', key });
      expect((await call(base, `/v1/sessions/${session}/share`, { key })).json.token).toBe(share.json.token);
      expect((await call(base, `/v1/sessions/${session}`, { key, method: 'DELETE' })).json.deleted).toBe(
        true,
      );
      expect((await call(base, `/v1/sessions/${session}`, { key })).status).toBe(404);
      expect((await call(base, `/v1/responses/${second.json.id}`, { key })).status).toBe(404);
      // Both nodes took part.
      expect(new Set(proxy.served).size).toBe(2);
    } finally {
      await proxy.close();
    }
  });

  it('concurrent retries with one Idempotency-Key spread over both nodes start one task', async () => {
    const storage = await sharedStorage();
    const a = await node({ ...storage, cluster: { nodeId: 'node-a' } });
    const b = await node({ ...storage, cluster: { nodeId: 'node-b' } });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        call([a, b][index % 2]!.baseUrl, '/v1/responses', {
          method: 'POST',
          key,
          headers: { 'idempotency-key': 'one-task-please' },
          body: { input: '@say once', background: true },
        }),
      ),
    );
    const ids = new Set(results.map((result) => result.json.id));
    expect(results.every((result) => result.status === 200)).toBe(true);
    expect(ids.size).toBe(1);
    const rows = await a.db.all<{ id: string }>('SELECT id FROM uhp_responses');
    expect(rows).toHaveLength(1);
  });

  it('kill -9 of the node running a task: the other ends it interrupted, events intact, reservation settled once', async () => {
    const storage = await sharedStorage();
    let offset = 0;
    const clock = () => Date.now() + offset;
    const survivor = await node({ ...storage, cluster: { nodeId: 'survivor', clock, heartbeatMs: 20 } });
    const budgets = new PrepaidBudgets(survivor.db, TEST_PRICING);
    await budgets.credit('alice', 100 * UNIT);
    const doomed = await spawnServerProcess(entry, [storage.database, storage.dataDir, 'doomed'], children);

    const created = await call(doomed.baseUrl, '/v1/responses', {
      method: 'POST',
      key,
      body: {
        input: '@say partial words here\n@sleep 60000\n@say never',
        background: true,
        max_output_tokens: 40,
      },
    });
    const id = created.json.id as string;
    const before = await readEvents(await stream(survivor.baseUrl, id), performance.now(), {
      ...untilText('partial words here'),
    });
    expect(await budgets.openReservations()).toEqual([
      { responseId: id, principalId: 'alice', reservedNanos: 40 * UNIT },
    ]);

    doomed.child.kill('SIGKILL');
    await new Promise((resolve) => doomed.child.once('exit', resolve));
    // The doomed node's lease runs out on the survivor's clock; its heartbeat then takes the task.
    const resumed = stream(survivor.baseUrl, id, before.events.at(-1)!.data.sequence_number);
    offset = 60_000;
    const after = await readEvents(await resumed, performance.now());
    const all = [...before.events, ...after.events];
    expectWellFormedStream(all);
    const final = all.at(-1)!.data.response;
    expect(final.status).toBe('failed');
    expect(final.error).toMatchObject({ code: 'arbiter_interrupted' });
    expect(JSON.stringify(final.output)).toContain('partial words here');
    expect(JSON.stringify(final.output)).not.toContain('never');

    // Settled once: unknown usage keeps the reservation charged, and no later heartbeat settles again.
    offset = 120_000;
    await until(async () =>
      (await survivor.db.all('SELECT 1 FROM uhp_task_leases')).length === 0 ? true : undefined,
    );
    expect(await budgets.openReservations()).toEqual([]);
    const settles = (await budgets.entries('alice')).filter((entry) => entry.kind === 'settle');
    expect(settles.map((entry) => entry.responseId)).toEqual([id]);
    expect((await budgets.account('alice'))?.balanceNanos).toBe(60 * UNIT);

    // The session goes on, on the node that is left.
    const next = await call(survivor.baseUrl, '/v1/responses', {
      method: 'POST',
      key,
      body: { input: '@say again', previous_response_id: id, max_output_tokens: 10 },
    });
    expect(next.json, JSON.stringify(next.json)).toMatchObject({ status: 'completed' });
  });

  it('kill -9 under a streaming client: its stream breaks, it resumes on the other node to the interrupted end', async () => {
    const storage = await sharedStorage();
    let offset = 0;
    const clock = () => Date.now() + offset;
    const survivor = await node({ ...storage, cluster: { nodeId: 'survivor', clock, heartbeatMs: 20 } });
    const budgets = new PrepaidBudgets(survivor.db, TEST_PRICING);
    await budgets.credit('alice', 100 * UNIT);
    const doomed = await spawnServerProcess(entry, [storage.database, storage.dataDir, 'doomed'], children);

    // The task streams to the client that created it, on the node that runs it; the node dies
    // while that stream is open.
    const attached: ArrivedEvent[] = [];
    const gone = new Promise((resolve) => doomed.child.once('exit', resolve));
    const text = untilText('partial words here');
    const creation = await fetch(`${doomed.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        input: '@say partial words here\n@sleep 60000\n@say never',
        stream: true,
        max_output_tokens: 40,
      }),
    });
    const outcome = await readEvents(creation, performance.now(), {
      onEvent(event) {
        attached.push(event);
        text.onEvent(event);
        if (text.stopWhen()) doomed.child.kill('SIGKILL');
      },
    }).then(
      () => 'ended',
      () => 'broken',
    );
    await gone;
    expect(outcome).toBe('broken');
    const id = attached[0]!.data.response.id as string;

    const resumed = stream(survivor.baseUrl, id, attached.at(-1)!.data.sequence_number);
    offset = 60_000;
    const rest = await readEvents(await resumed, performance.now());
    const all = [...attached, ...rest.events];
    expectWellFormedStream(all);
    const final = all.at(-1)!.data.response;
    expect(final.status).toBe('failed');
    expect(final.error).toMatchObject({ code: 'arbiter_interrupted' });
    expect(JSON.stringify(final.output)).toContain('partial words here');
    offset = 120_000;
    await until(async () =>
      (await survivor.db.all('SELECT 1 FROM uhp_task_leases')).length === 0 ? true : undefined,
    );
    expect(await budgets.openReservations()).toEqual([]);
    const settles = (await budgets.entries('alice')).filter((entry) => entry.kind === 'settle');
    expect(settles.map((entry) => entry.responseId)).toEqual([id]);
  });
});
