import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TeamOutcomeRecord } from '@arbiter/tool-gate/team';
import { readCachedTeamPolicy, TeamReportQueue } from '@arbiter/tool-gate/team-reporting';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TeamContractServer } from '../../../test/support/team-contract-server.js';
import { flushTeamReports } from './team-report-flusher.js';

const run = promisify(execFile);
const launcher = resolve(import.meta.dirname, '../../../bin/arbiter.js');
const KEY = 'arb_test_reporter_key_0123456789';

let directory: string;
let server: TeamContractServer;
beforeEach(async () => {
  directory = mkdtempSync(join(tmpdir(), 'team-flush-'));
  server = await new TeamContractServer([KEY], ['Bash(kubectl apply:*)']).start();
});
afterEach(async () => {
  await server.stop();
  rmSync(directory, { recursive: true, force: true });
});

function record(n: number): TeamOutcomeRecord {
  return {
    kind: 'outcome',
    id: `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`,
    time: '2026-11-28T07:00:00.000Z',
    host: 'gemini',
    session: 's',
    tool: 'run_shell_command',
    call_key: 'c'.repeat(64),
    outcome: 'ran',
  };
}
const numbers = (ids: readonly string[]) => ids.map((id) => Number(id.slice(-12)));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

function queue(count: number, first = 1): TeamReportQueue {
  const reports = new TeamReportQueue({ directory });
  for (let n = first; n < first + count; n++) reports.append(record(n));
  return reports;
}

const flush = () => flushTeamReports({ server: server.url, apiKey: KEY, directory });

describe('flushTeamReports', () => {
  it('sends the queue in order in batches of at most 100, empties it and caches the policy', async () => {
    const reports = queue(250);
    const outcome = await flush();
    expect(outcome).toMatchObject({ ok: true, accepted: 250, duplicates: 0, policy: 'updated' });
    expect(server.bodies.map((body) => JSON.parse(body.toString()).records.length)).toEqual([100, 100, 50]);
    expect(numbers(server.stored.get(KEY)!.map((entry) => entry.id))).toEqual(range(1, 250));
    expect(reports.status()).toMatchObject({ records: 0, last_error: null });
    expect(readCachedTeamPolicy(directory)).toEqual(server.policy);
  });

  it('asks for the policy with If-None-Match and keeps the cache on 304', async () => {
    await flush();
    expect(await flush()).toMatchObject({ ok: true, accepted: 0, policy: 'unchanged' });
    expect(server.notModified).toBe(1);
    server.policy = TeamContractServer.policyOf(['Bash(kubectl apply:*)', 'Bash(npm publish)']);
    expect(await flush()).toMatchObject({ ok: true, policy: 'updated', policySha256: server.policy.sha256 });
    expect(readCachedTeamPolicy(directory)?.allow).toEqual(['Bash(kubectl apply:*)', 'Bash(npm publish)']);
  });

  it('keeps every record while the server is down and replays them in order when it is back', async () => {
    const reports = queue(30);
    await server.stop();
    const down = await flush();
    expect(down).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED$/),
    });
    expect(reports.status()).toMatchObject({ records: 30, last_error: down.ok ? null : down.error });
    queue(20, 31); // more calls while it is down
    await server.start();
    expect(await flush()).toMatchObject({ ok: true, accepted: 50, duplicates: 0 });
    expect(numbers(server.stored.get(KEY)!.map((entry) => entry.id))).toEqual(range(1, 50));
    expect(reports.status()).toMatchObject({ records: 0, last_error: null });
  });

  it('resends a batch whose answer was lost, and the server stores it once (replay is idempotent)', async () => {
    const reports = queue(150);
    server.loseNextAnswer = true;
    const lost = await flush();
    expect(lost.ok).toBe(false);
    expect(reports.status().records).toBe(150);
    expect(await flush()).toMatchObject({ ok: true, accepted: 50, duplicates: 100 });
    expect(numbers(server.stored.get(KEY)!.map((entry) => entry.id))).toEqual(range(1, 150));
  });

  it('keeps the records and says why in one line when the server refuses', async () => {
    const reports = queue(3);
    const refused = await flushTeamReports({
      server: server.url,
      apiKey: 'arb_wrong_key_0123456789',
      directory,
    });
    expect(refused).toMatchObject({
      ok: false,
      error: 'the server refused the reports: 401 invalid_api_key: the API key is not valid',
    });
    server.refuseNext = 503;
    expect(await flush()).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^the server refused the reports: 503 refused_for_test/),
    });
    expect(reports.status().records).toBe(3);
    // Neither key is written anywhere on disk.
    for (const file of ['queue.jsonl', 'state.json']) {
      const text = readFileSync(join(directory, file), 'utf8');
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('arb_wrong_key');
    }
  });

  it('drops a record the server refuses as invalid, counts it, and sends the records behind it', async () => {
    const reports = queue(2);
    reports.append({ ...record(3), session: 'a\u0000b' });
    queue(2, 4);
    const outcome = await flush();
    expect(outcome).toMatchObject({ ok: true, accepted: 4 });
    expect(numbers(server.stored.get(KEY)!.map((entry) => entry.id))).toEqual([1, 2, 4, 5]);
    expect(reports.status()).toMatchObject({
      records: 0,
      dropped: 1,
      last_error:
        'dropped a record the server refused: the server refused the reports: 400 invalid_request: records[2]: contains a NUL character',
    });
  });

  it('sends a record queued after its last batch, while it still held the lock', async () => {
    const reports = queue(1);
    let appended = false;
    server.onPolicyRequest = () => {
      // A hook queues now, sees the flush lock, and starts no flusher of its own.
      if (!appended) reports.append(record(2));
      appended = true;
    };
    expect(await flush()).toMatchObject({ ok: true, accepted: 2 });
    expect(numbers(server.stored.get(KEY)!.map((entry) => entry.id))).toEqual([1, 2]);
    expect(reports.status()).toMatchObject({ records: 0, last_error: null });
  });

  it('fails without a key before sending anything', async () => {
    queue(1);
    expect(await flushTeamReports({ server: server.url, apiKey: undefined, directory })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^ARBITER_API_KEY is not set/),
    });
    expect(server.bodies).toHaveLength(0);
  });

  it('refuses a served policy whose hash does not match its rules, and keeps the old one', async () => {
    await flush();
    const before = readCachedTeamPolicy(directory);
    server.policy = { ...server.policy, allow: ['Bash'], sha256: 'f'.repeat(64) };
    expect(await flush()).toMatchObject({ ok: false, error: expect.stringMatching(/unusable: its sha256/) });
    expect(readCachedTeamPolicy(directory)).toEqual(before);
  });

  it('two flushers at once never send a record twice', async () => {
    queue(300);
    server.delayMs = 150;
    await Promise.all([flush(), flush()]);
    expect(server.received).toHaveLength(300);
    expect(new Set(server.received).size).toBe(300);
  });

  it('two flusher processes at once never send a record twice (the lock file), and exit 0 with the queue empty', async () => {
    queue(300);
    server.delayMs = 150;
    const environment = { ...process.env, ARBITER_API_KEY: KEY };
    // The queue lives in $ARBITER_HOME/gate-reports: both processes share this one.
    const home = mkdtempSync(join(tmpdir(), 'team-flush-home-'));
    const reports = new TeamReportQueue({ directory: join(home, 'gate-reports') });
    for (const entry of new TeamReportQueue({ directory }).peek(300)) reports.append(entry);
    const flusher = () =>
      run(process.execPath, [launcher, 'gate', 'report', 'flush', '--server', server.url], {
        env: { ...environment, ARBITER_HOME: home },
      });
    try {
      const [first, second] = await Promise.all([flusher(), flusher()]);
      expect(first.stderr + second.stderr).toBe('');
      expect(server.received).toHaveLength(300);
      expect(new Set(server.received).size).toBe(300);
      expect(reports.status().records).toBe(0);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
