import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrepaidBudgets } from '@arbiter/harness-server';
import { openDatabase } from '@arbiter/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { killOwned, type ServerProcess, spawnServerProcess } from '../fixtures/spawn-server-process.js';
import { call, until } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';
import { TEST_PRICING, UNIT } from './fixtures/test-pricing.js';

const alice = TEST_KEYS.alice;
const servers: UhpTestServer[] = [];
const children: ChildProcess[] = [];
const dataDirs: string[] = [];

afterEach(async () => {
  await killOwned(children);
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A second connection to the server's database file, as `arbiter billing` would open it. */
function ledgerOf(dataDir: string): PrepaidBudgets {
  return new PrepaidBudgets(openDatabase(dataDir, []), TEST_PRICING);
}

async function pricedServer(): Promise<UhpTestServer> {
  const server = await startUhpTestServer({ pricing: TEST_PRICING });
  servers.push(server);
  return server;
}

const terminal = (status: string) => status !== 'in_progress';

async function finished(baseUrl: string, id: string) {
  return until(async () => {
    const result = await call(baseUrl, `/v1/responses/${id}`, { key: alice });
    return terminal(result.json.status) ? result.json : undefined;
  });
}

/** Ledger invariants: no balance below zero, one reserve and at most one settle per response. */
async function expectConsistentLedger(ledger: PrepaidBudgets, principal: string) {
  const entries = await ledger.entries(principal);
  expect(entries.every((entry) => entry.balanceNanos >= 0)).toBe(true);
  const reserves = entries.filter((entry) => entry.kind === 'reserve').map((entry) => entry.responseId);
  const settles = entries.filter((entry) => entry.kind === 'settle').map((entry) => entry.responseId);
  expect(new Set(reserves).size).toBe(reserves.length);
  expect(new Set(settles).size).toBe(settles.length);
  const credits = entries.filter((entry) => entry.kind === 'credit');
  const sum = entries.reduce((total, entry) => total + entry.amountNanos, 0);
  expect((await ledger.account(principal))?.balanceNanos).toBe(sum);
  expect(credits.length).toBeGreaterThan(0);
  return { reserves, settles };
}

describe('prepaid budgets through the UHP API', () => {
  it('50 concurrent tasks against a balance covering 10: exactly 10 start, none overdraws, each settles once', async () => {
    const server = await pricedServer();
    const ledger = ledgerOf(server.dataDir);
    await ledger.credit('alice', 100 * UNIT);
    const attempts = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(server.baseUrl, '/v1/responses', {
          method: 'POST',
          key: alice,
          body: { input: '@say started\n@sleep 600000', max_output_tokens: 10, background: true },
        }),
      ),
    );
    const started = attempts.filter((attempt) => attempt.status === 200);
    const refused = attempts.filter((attempt) => attempt.status === 429);
    expect(started).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const attempt of refused) {
      expect(attempt.json.error).toMatchObject({
        type: 'rate_limit_error',
        code: 'quota_exhausted',
        param: 'max_output_tokens',
        detail: { required: '10', available: '0', currency: 'EUR' },
      });
    }
    expect(await ledger.account('alice')).toMatchObject({ balanceNanos: 0, reservedNanos: 100 * UNIT });
    // Refused requests created nothing: the principal's sessions are the ten started ones.
    const sessions = await call(server.baseUrl, '/v1/sessions?limit=100', { key: alice });
    expect(sessions.json.data ?? sessions.json.sessions).toHaveLength(10);

    // Cancel them all: a cancelled turn reports no usage, so each keeps its reservation charged.
    await Promise.all(
      started.map((attempt) =>
        call(server.baseUrl, `/v1/responses/${attempt.json.id}/cancel`, { method: 'POST', key: alice }),
      ),
    );
    for (const attempt of started)
      expect((await finished(server.baseUrl, attempt.json.id)).status).toBe('cancelled');
    const { reserves, settles } = await expectConsistentLedger(ledger, 'alice');
    expect(reserves.sort()).toEqual(started.map((attempt) => attempt.json.id).sort());
    expect(settles.sort()).toEqual(reserves);
    expect(await ledger.openReservations()).toEqual([]);
    expect(await ledger.account('alice')).toMatchObject({ balanceNanos: 0, reservedNanos: 0 });
  });

  it('settles completed, incomplete and failed tasks to their usage; an idempotent retry reserves nothing', async () => {
    const server = await pricedServer();
    const ledger = ledgerOf(server.dataDir);
    await ledger.credit('alice', 50 * UNIT);

    const completed = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: alice,
      headers: { 'idempotency-key': 'budget-retry-1' },
      body: { input: '@say one two three', max_output_tokens: 20 },
    });
    expect(completed.json.status).toBe('completed');
    const used = completed.json.usage.output_tokens as number;
    expect(used).toBeGreaterThan(3);
    expect((await ledger.account('alice'))?.balanceNanos).toBe((50 - used) * UNIT);

    const retry = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: alice,
      headers: { 'idempotency-key': 'budget-retry-1' },
      body: { input: '@say one two three', max_output_tokens: 20 },
    });
    expect(retry.json.id).toBe(completed.json.id);
    expect((await ledger.account('alice'))?.balanceNanos).toBe((50 - used) * UNIT);

    const cut = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: alice,
      body: { input: '@say many many many words in this long reply', max_output_tokens: 5 },
    });
    expect(cut.json.status).toBe('incomplete');
    expect(cut.json.usage.output_tokens).toBe(5);

    const failed = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: alice,
      body: { input: '@fail broken on purpose', max_output_tokens: 10 },
    });
    expect(failed.json.status).toBe('failed');
    // A failure without usage keeps its reservation charged, never a guessed lower amount.
    expect((await ledger.account('alice'))?.balanceNanos).toBe((50 - used - 5 - 10) * UNIT);

    // A metered task without max_output_tokens is held to the default cap it reserved (4096 > 35).
    const uncapped = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: alice,
      body: { input: '@say hi' },
    });
    expect(uncapped.status).toBe(429);
    expect(uncapped.json.error.detail).toMatchObject({ required: '4096', available: String(35 - used) });

    const { reserves, settles } = await expectConsistentLedger(ledger, 'alice');
    expect(reserves).toHaveLength(3);
    expect(settles).toEqual(reserves);

    // Bob has no account: unmetered, nothing recorded.
    const bob = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: TEST_KEYS.bob,
      body: { input: '@say free' },
    });
    expect(bob.json.status).toBe('completed');
    expect(await ledger.account('bob')).toBeNull();
    expect(await ledger.entries('bob')).toEqual([]);
  });
});

const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'budget-server-entry.ts');

async function spawnServer(dataDir: string): Promise<ServerProcess> {
  return spawnServerProcess(entry, [dataDir], children);
}

describe('prepaid budgets across a crash', () => {
  it('after kill -9 mid-task, the restarted server settles the interrupted reservation exactly once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-budget-restart-'));
    dataDirs.push(dataDir);
    const first = await spawnServer(dataDir);
    const ledger = ledgerOf(dataDir);
    await ledger.credit('alice', 30 * UNIT);
    const running = await Promise.all(
      [0, 1].map(() =>
        call(first.baseUrl, '/v1/responses', {
          method: 'POST',
          key: alice,
          body: { input: '@say partial\n@sleep 600000', max_output_tokens: 10, background: true },
        }),
      ),
    );
    expect(running.map((result) => result.status)).toEqual([200, 200]);
    expect(await ledger.openReservations()).toHaveLength(2);
    expect((await ledger.account('alice'))?.balanceNanos).toBe(10 * UNIT);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    // Nothing settled while no server ran: the reservations are still open.
    expect(await ledger.openReservations()).toHaveLength(2);

    const second = await spawnServer(dataDir);
    for (const result of running) {
      const recovered = await call(second.baseUrl, `/v1/responses/${result.json.id}`, { key: alice });
      expect(recovered.json.status).toBe('failed');
    }
    expect(await ledger.openReservations()).toEqual([]);
    const afterFirstRecovery = await ledger.entries('alice');
    const { settles } = await expectConsistentLedger(ledger, 'alice');
    expect(settles.sort()).toEqual(running.map((result) => result.json.id).sort());

    // The refunded balance is usable at once, and recovery settled nothing twice: the only new
    // entries belong to the new task.
    const next = await call(second.baseUrl, '/v1/responses', {
      method: 'POST',
      key: alice,
      body: { input: '@say after restart', max_output_tokens: 10 },
    });
    expect(next.status).toBe(200);
    expect(terminal(next.json.status)).toBe(true);
    const added = (await ledger.entries('alice')).slice(afterFirstRecovery.length);
    expect(added.map((entry) => [entry.kind, entry.responseId])).toEqual([
      ['reserve', next.json.id],
      ['settle', next.json.id],
    ]);
    await expectConsistentLedger(ledger, 'alice');
  });
});
