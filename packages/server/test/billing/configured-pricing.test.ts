import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PrepaidBudgets } from '@arbiter/harness-server';
import { openDatabase, SqliteDatabase } from '@arbiter/storage';
import { describe, expect, it, onTestFinished } from 'vitest';
import { KeyStore } from '../../src/auth/key-store.js';
import { serverConfigSchema } from '../../src/config/server-config.js';
import { startServer } from '../../src/server.js';
import { migrations } from '../../src/storage/migrations.js';

describe('prices and ACP agents from the configuration file', () => {
  it('meters a principal of the real server with the configured price and serves the configured agent', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-configured-pricing-'));
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const config = serverConfigSchema.parse({
      billing: { currency: 'EUR', outputPricePerMillionTokens: { 'arbiter-offline': 500_000 } },
      acp: {
        presets: false,
        agents: [{ id: 'configured-agent', command: process.execPath, args: ['-e', '0'] }],
      },
    });
    expect(() => serverConfigSchema.parse({ billing: { currency: 'euro' } })).toThrow(/ISO 4217/);
    const server = await startServer({ dataDir, port: 0, config, harness: { offlineChunkDelayMs: 0 } });
    try {
      const db = openDatabase(dataDir, migrations);
      const keys = await KeyStore.open(new SqliteDatabase(db));
      const usdPrincipal = (await keys.list())[0]!.principal.id;
      const created = await keys.create('eve');
      const key = created.key;
      const principal = created.record.principal.id;
      await keys.close();
      const budgets = new PrepaidBudgets(db, { currency: 'EUR' });
      await budgets.credit(principal, 5_000_000_000);
      await new PrepaidBudgets(db).credit(usdPrincipal, 5_000_000_000);
      const post = (body: unknown, bearer = key) =>
        fetch(`${server.url}/api/harness/v1/responses`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then(async (response) => ({
          status: response.status,
          // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies.
          json: (await response.json()) as any,
        }));
      // A balance in another currency than the prices cannot pay for anything.
      const mismatch = await post({ input: '@say hi', max_output_tokens: 1 }, server.initialKey!);
      expect(mismatch.status).toBe(409);
      expect(mismatch.json.error.code).toBe('arbiter_billing_currency_mismatch');
      // 0.5 per output token: 20 tokens need 10 EUR, more than the 5 credited.
      const refused = await post({ input: '@say hi', max_output_tokens: 20 });
      expect(refused.status).toBe(429);
      expect(refused.json.error.detail).toEqual({
        required: '10',
        available: '5',
        currency: 'EUR',
      });
      const body = (await post({ input: '@say hi', max_output_tokens: 10 })).json;
      expect(body.status).toBe('completed');
      expect((await budgets.account(principal))?.balanceNanos).toBe(
        5_000_000_000 - body.usage.output_tokens * 500_000_000,
      );

      const models = await fetch(`${server.url}/api/harness/v1/models`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(JSON.stringify(await models.json())).toContain('configured-agent');
      db.close();
    } finally {
      await server.close();
    }
  });
});
