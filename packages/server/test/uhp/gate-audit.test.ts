import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

let server: UhpTestServer;
beforeAll(async () => {
  server = await startUhpTestServer();
});
afterAll(() => server.close());

const audit = (key: string, query = '') => call(server.baseUrl, `/v1/gate/audit${query}`, { key });

describe('GET /v1/gate/audit', () => {
  it("shows the caller's own verdicts, filtered, and no one else's", async () => {
    const task = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: TEST_KEYS.alice,
      body: { input: '@write notes/a.txt <<<alpha>>>\n@list' },
    });
    expect(task.json.status).toBe('completed');
    const session = task.json.metadata.session_id;

    const mine = await audit(TEST_KEYS.alice);
    expect(mine.status).toBe(200);
    expect(mine.json.chain).toEqual({ intact: true });
    const tools = mine.json.entries.map((entry: { tool: string }) => entry.tool);
    expect(tools).toEqual(['LS', 'Write']); // newest first
    for (const entry of mine.json.entries) {
      expect(entry.session_id).toBe(session);
      expect(entry).toMatchObject({ effective: 'ALLOW', decided_by: expect.any(String) });
    }
    expect((await audit(TEST_KEYS.alice, '?tool=Write')).json.entries).toHaveLength(1);
    expect((await audit(TEST_KEYS.alice, '?verdict=DENY')).json.entries).toHaveLength(0);
    const later = new Date(Date.now() + 60_000).toISOString();
    expect((await audit(TEST_KEYS.alice, `?since=${later}`)).json.entries).toHaveLength(0);
    expect((await audit(TEST_KEYS.alice, '?limit=1')).json.entries).toHaveLength(1);

    // Bob's view of the same log holds nothing of Alice's.
    const theirs = await audit(TEST_KEYS.bob);
    expect(theirs.status).toBe(200);
    expect(theirs.json.entries).toEqual([]);
    expect(JSON.stringify(theirs.json)).not.toContain(session);
    expect((await audit('not-a-key')).status).toBe(401);
  });

  it('names a wrong filter', async () => {
    const wrong = await audit(TEST_KEYS.alice, '?verdict=MAYBE');
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toMatchObject({ code: 'invalid_input', param: 'verdict' });
    expect((await audit(TEST_KEYS.alice, '?since=yesterday')).json.error.param).toBe('since');
    expect((await audit(TEST_KEYS.alice, '?limit=0')).json.error.param).toBe('limit');
  });

  it('says when the chain no longer verifies after an edit of the log', async () => {
    const file = path.join(server.dataDir, 'uhp', 'gate-audit.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[0] = (lines[0] ?? '').replace('"ALLOW"', '"DENY"');
    fs.writeFileSync(file, lines.join('\n'));
    const after = await audit(TEST_KEYS.alice);
    expect(after.json.chain).toEqual({ intact: false });
  });
});
