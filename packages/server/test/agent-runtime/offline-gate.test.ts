import path from 'node:path';
import type { GateAuditRecord } from '@arbiter/harness-server';
import { AuditLog } from '@arbiter/tool-gate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

const key = TEST_KEYS.alice;
let server: UhpTestServer;
beforeAll(async () => {
  server = await startUhpTestServer();
});
afterAll(() => server.close());

describe('the offline model behind the tool gate', () => {
  it('refuses a destructive @shell, shows the refusal as the tool result and audits every verdict', async () => {
    const result = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key,
      body: { input: '@write kept.txt <<<still here>>>\n@shell rm -rf ~\n@shell cat kept.txt' },
    });
    expect(result.json.status).toBe('completed');
    const outputs = result.json.output
      .filter((item: { type: string }) => item.type === 'function_call_output')
      .map((item: { output: string }) => item.output);
    expect(outputs[0]).toBe('wrote 10 bytes');
    expect(outputs[1]).toMatch(/^error: refused by the tool gate: .*destructive/);
    // The workspace (the shell's HOME) survived because the command never ran.
    expect(outputs[2]).toBe('[exit 0]\nstill here');

    const audit = new AuditLog<GateAuditRecord>(path.join(server.dataDir, 'uhp', 'gate-audit.jsonl'));
    const records = (await audit.read()).map((entry) => entry.record);
    expect(records.map((record) => [record.tool, record.effective])).toEqual([
      ['Write', 'ALLOW'],
      ['Bash', 'DENY'],
      ['Bash', 'ALLOW'],
    ]);
    for (const record of records)
      expect(record).toMatchObject({
        response_id: result.json.id,
        session_id: result.json.metadata.session_id,
      });
    expect((await audit.verify()).ok).toBe(true);
  });

  it('keeps disabled tools a hard block before the gate is asked', async () => {
    const harness = (
      await call(server.baseUrl, '/v1/harnesses', {
        method: 'POST',
        key,
        body: { base: 'agent', disabled_tools: ['shell'] },
      })
    ).json;
    const result = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key,
      body: { input: '@shell echo hi', metadata: { harness_id: harness.id } },
    });
    const output = result.json.output.find((item: { type: string }) => item.type === 'function_call_output');
    expect(output.output).toBe('error: the tool "shell" is disabled for this harness');
  });
});
