import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PrepaidBudgets } from '@arbiter/harness-server';
import { migrations } from '@arbiter/server';
import { openDatabase } from '@arbiter/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runArbiter } from '../../../test/support/run-arbiter.js';

let dataDir: string;

function arbiter(...args: string[]): Promise<CliRun> {
  return runArbiter([...args, '--data-dir', dataDir], { env: { HOME: dataDir } });
}

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-cli-billing-'));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('arbiter billing', () => {
  it('credits a principal by name, shows balances and lists the ledger with task reservations', async () => {
    expect((await arbiter('keys', 'create', '--principal', 'alice')).code).toBe(0);
    const empty = await arbiter('billing', 'show');
    expect(empty).toMatchObject({ code: 0, stdout: 'no principal has a balance: everyone is unmetered\n' });

    const credited = await arbiter(
      'billing',
      'credit',
      'alice',
      '12.50',
      '--currency',
      'EUR',
      '--note',
      'welcome',
    );
    expect(credited).toMatchObject({ code: 0, stdout: 'credited 12.5 EUR to alice: balance 12.5 EUR\n' });
    expect((await arbiter('billing', 'credit', 'alice', '0.000000001')).stdout).toContain(
      'balance 12.500000001 EUR',
    );

    // A task as the server runs it: reserve, then settle to 3 tokens at 1 unit per token.
    const db = openDatabase(dataDir, migrations);
    const aliceId = (db.prepare("SELECT id FROM principals WHERE name = 'alice'").get() as { id: string }).id;
    const budgets = new PrepaidBudgets(db, {
      currency: 'EUR',
      outputPricePerMillionTokens: { m: 1_000_000 },
    });
    expect(
      await budgets.reserve({ principalId: aliceId, responseId: 'resp_1', model: 'm', maxOutputTokens: 5 }),
    ).toMatchObject({
      ok: true,
    });
    const during = JSON.parse((await arbiter('billing', 'show', 'alice', '--json')).stdout);
    expect(during).toEqual([
      { principal: 'alice', principal_id: aliceId, currency: 'EUR', balance: '7.500000001', reserved: '5' },
    ]);
    await budgets.settle('resp_1', { output_tokens: 3 });
    db.close();

    const ledger = JSON.parse((await arbiter('billing', 'ledger', 'alice', '--json')).stdout);
    expect(
      ledger.map((entry: { kind: string; amount: string; balance: string }) => [
        entry.kind,
        entry.amount,
        entry.balance,
      ]),
    ).toEqual([
      ['credit', '12.5', '12.5'],
      ['credit', '0.000000001', '12.500000001'],
      ['reserve', '-5', '7.500000001'],
      ['settle', '2', '9.500000001'],
    ]);
    const table = await arbiter('billing', 'ledger');
    expect(table.stdout.split('\n')[0]).toMatch(
      /^at\s+principal\s+kind\s+amount\s+balance\s+response\s+note$/,
    );
    expect(table.stdout).toContain('welcome');
    expect((await arbiter('billing', 'show')).stdout).toMatch(/alice\s+9\.500000001 EUR\s+0 EUR/);
  });

  it('refuses bad amounts, unknown principals and a second currency with exit status 2', async () => {
    for (const amount of ['0', '1e3']) {
      const refused = await arbiter('billing', 'credit', 'local', amount);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        'arbiter billing credit: the amount must be a positive decimal number',
      );
    }
    const unknown = await arbiter('billing', 'credit', 'mallory', '5');
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toContain('no principal named mallory');
    // `local` is the principal of a server started with --no-auth.
    expect((await arbiter('billing', 'credit', 'local', '5')).stdout).toBe(
      'credited 5 USD to local: balance 5 USD\n',
    );
    const otherCurrency = await arbiter('billing', 'credit', 'local', '5', '--currency', 'EUR');
    expect(otherCurrency.code).toBe(2);
    expect(otherCurrency.stderr).toContain('the balance of local is in USD, not EUR');
    expect((await arbiter('billing', 'show', 'nobody-here')).code).toBe(2);
  });
});
