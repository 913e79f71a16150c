import path from 'node:path';
import type { GateAuditRecord } from '@arbiter/harness-server';
import { AuditLog } from '@arbiter/tool-gate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

// Removing a generated directory is destructive at 0.5: between the default allow_risk_max (0.2) and
// deny_noul (0.7), so the analysis asks at the defaults and denies once deny_noul is lowered below it.
const COMMAND = 'rm -rf node_modules';

let byDefault: UhpTestServer;
let stricter: UhpTestServer;
beforeAll(async () => {
  byDefault = await startUhpTestServer();
  stricter = await startUhpTestServer({ toolGating: { thresholds: { deny_noul: 0.45 } } });
});
afterAll(async () => {
  await byDefault.close();
  await stricter.close();
});

async function gateRecord(server: UhpTestServer): Promise<GateAuditRecord> {
  const result = await call(server.baseUrl, '/v1/responses', {
    method: 'POST',
    key: TEST_KEYS.alice,
    body: { input: `@shell ${COMMAND}` },
  });
  expect(result.json.status).toBe('completed');
  const audit = new AuditLog<GateAuditRecord>(path.join(server.dataDir, 'uhp', 'gate-audit.jsonl'));
  const records = (await audit.read()).map((entry) => entry.record);
  expect(records).toHaveLength(1);
  return records[0]!;
}

describe("the operator's tool-gating thresholds through the server", () => {
  it("reach the engine's disposition, not only the composition", async () => {
    const asked = await gateRecord(byDefault);
    expect(asked.thresholds.deny_noul).toBe(0.7);
    expect(asked.answers?.destructive?.noul).toBe(0.5);
    expect(asked.answers?.disposition?.choice).toBe('ask');
    expect(asked.effective).toBe('ASK');

    const denied = await gateRecord(stricter);
    expect(denied.thresholds.deny_noul).toBe(0.45);
    expect(denied.answers?.destructive?.noul).toBe(0.5);
    // The disposition is the analysis's own answer: it can only say deny if the override reached it.
    expect(denied.answers?.disposition?.choice).toBe('deny');
    expect(denied.effective).toBe('DENY');
    expect(denied.pack.sha256).not.toBe(asked.pack.sha256);
  });
});
