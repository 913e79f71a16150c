import { PrepaidBudgets } from '@arbiter/harness-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

let server: UhpTestServer;
beforeAll(async () => {
  server = await startUhpTestServer();
});
afterAll(() => server.close());

describe('GET /v1/billing', () => {
  it("shows the caller's own balance and ledger, and nobody else's", async () => {
    // The operator credits Alice from another connection, as `arbiter billing credit` does.
    const db = await server.openStorage();
    await new PrepaidBudgets(db).credit('alice', 12_500_000_000, 'opening credit');
    await db.close();

    const alice = await call(server.baseUrl, '/v1/billing', { key: TEST_KEYS.alice });
    expect(alice.status).toBe(200);
    expect(alice.json.account).toMatchObject({ currency: 'USD', balance: '12.5', reserved: '0' });
    expect(alice.json.ledger).toEqual([
      expect.objectContaining({ kind: 'credit', amount: '12.5', balance: '12.5', note: 'opening credit' }),
    ]);

    const bob = await call(server.baseUrl, '/v1/billing', { key: TEST_KEYS.bob });
    expect(bob.status).toBe(200);
    expect(bob.json).toMatchObject({ account: null, ledger: [] });
    expect((await call(server.baseUrl, '/v1/billing')).status).toBe(401);
    const wrong = await call(server.baseUrl, '/v1/billing?limit=0', { key: TEST_KEYS.alice });
    expect(wrong.json.error).toMatchObject({ code: 'invalid_input', param: 'limit' });
  });
});
