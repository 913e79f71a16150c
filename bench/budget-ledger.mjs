// Prepaid budget costs, all in one run:
//   1. reserve + settle of one task on the ledger, against a bare BEGIN IMMEDIATE transaction with
//      one UPDATE (the floor of any durable write) as the baseline;
//   2. a whole task (POST /v1/responses, blocking, offline model) of a metered principal, against the
//      same task of an unmetered principal, interleaved, through the UHP plugin (Fastify inject).
// Run: npx tsx bench/budget-ledger.mjs [--ops 5000] [--tasks 200]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { authPlugin } from '../packages/auth/src/auth-plugin.ts';
import { createKeyAuthenticator } from '../packages/auth/src/authenticator.ts';
import { PrepaidBudgets } from '../packages/harness-server/src/billing/prepaid-budgets.ts';
import { uhpPlugin } from '../packages/harness-server/src/uhp/uhp-plugin.ts';
import { migrations } from '../packages/server/src/storage/migrations.ts';
import { openDatabase } from '../packages/storage/src/database.ts';

const { values } = parseArgs({
  options: { ops: { type: 'string', default: '5000' }, tasks: { type: 'string', default: '200' } },
});
const ops = Number(values.ops);
const tasks = Number(values.tasks);
const percentile = (samples, p) => [...samples].sort((a, b) => a - b)[Math.floor((samples.length - 1) * p)];
const fmt = (ms) => `${(ms * 1000).toFixed(1)} µs`;

// 1. Ledger operations.
{
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-bench-ledger-'));
  const db = openDatabase(dataDir, migrations);
  const budgets = new PrepaidBudgets(db, { outputPricePerMillionTokens: { m: 15 } });
  await budgets.credit('p', 999_999_000_000_000);
  db.exec(
    'CREATE TABLE bench_counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL); INSERT INTO bench_counter VALUES (1, 0)',
  );
  const bump = db.prepare('UPDATE bench_counter SET n = n + 1 WHERE id = 1');
  const baseline = db.transaction(() => bump.run());
  const reserveSettle = [];
  const bare = [];
  for (let i = 0; i < ops; i++) {
    let start = performance.now();
    baseline.immediate();
    bare.push(performance.now() - start);
    start = performance.now();
    await budgets.reserve({ principalId: 'p', responseId: `r${i}`, model: 'm', maxOutputTokens: 4096 });
    await budgets.settle(`r${i}`, { output_tokens: 1000 });
    reserveSettle.push(performance.now() - start);
  }
  const p50 = percentile(reserveSettle, 0.5);
  const b50 = percentile(bare, 0.5);
  console.log(
    `ledger, ${ops} tasks: reserve+settle p50 ${fmt(p50)} p95 ${fmt(percentile(reserveSettle, 0.95))}`,
  );
  console.log(
    `  baseline (one IMMEDIATE UPDATE) p50 ${fmt(b50)} p95 ${fmt(percentile(bare, 0.95))}; ratio ${(p50 / b50).toFixed(2)}x`,
  );
  db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// 2. Whole tasks, metered against unmetered.
{
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-bench-budget-'));
  const db = openDatabase(dataDir, migrations);
  const app = Fastify({ logger: false });
  const principals = new Map([
    ['metered-key', { principal: { id: 'metered', name: 'metered' }, role: 'member' }],
    ['free-key', { principal: { id: 'free', name: 'free' }, role: 'member' }],
  ]);
  const authenticateKey = (token) => principals.get(token) ?? null;
  await app.register(authPlugin, { authenticator: createKeyAuthenticator({ authenticateKey }) });
  await app.register(uhpPlugin, {
    prefix: '/api/harness',
    db,
    dataDir,
    offlineChunkDelayMs: 0,
    previewConverter: null,
    pricing: { outputPricePerMillionTokens: { 'arbiter-offline': 15 } },
  });
  await app.ready();
  await new PrepaidBudgets(db).credit('metered', 999_999_000_000_000);
  const run = async (key) => {
    const start = performance.now();
    const response = await app.inject({
      method: 'POST',
      url: '/api/harness/v1/responses',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: { input: '@say a short answer of a few words', max_output_tokens: 64 },
    });
    if (response.json().status !== 'completed') throw new Error(response.body);
    return performance.now() - start;
  };
  for (let i = 0; i < 20; i++) await run(i % 2 ? 'metered-key' : 'free-key');
  const metered = [];
  const free = [];
  for (let i = 0; i < tasks; i++) {
    free.push(await run('free-key'));
    metered.push(await run('metered-key'));
  }
  const m50 = percentile(metered, 0.5);
  const f50 = percentile(free, 0.5);
  console.log(
    `tasks, ${tasks} each: metered p50 ${m50.toFixed(2)} ms p95 ${percentile(metered, 0.95).toFixed(2)} ms`,
  );
  console.log(
    `  unmetered p50 ${f50.toFixed(2)} ms p95 ${percentile(free, 0.95).toFixed(2)} ms; ratio ${(m50 / f50).toFixed(2)}x`,
  );
  await app.close();
  db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
