import type { HarnessRuntime, HarnessTurn, RuntimeEvent } from '@arbiter/harness-server';
import { OfflineAgentRuntime } from '@arbiter/harness-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

/** A second base behind the same interface: cites its input file and cannot account for usage. */
class EchoRuntime implements HarnessRuntime {
  readonly base = 'echo';
  readonly label = 'Echo (test runtime)';
  readonly backend = 'echo';
  readonly defaultModel = 'echo-1';
  models() {
    return [{ id: 'echo-1', label: 'Echo', backend: 'echo', available: () => true }];
  }
  async *run(turn: HarnessTurn): AsyncIterable<RuntimeEvent> {
    yield { type: 'text-delta', text: `echo: ${turn.text}` };
    for (const file of turn.files) yield { type: 'file-produced', path: file.path };
    yield { type: 'finish', reason: 'stop', usage: null };
  }
}

const key = TEST_KEYS.alice;
let server: UhpTestServer;
beforeAll(async () => {
  server = await startUhpTestServer({
    createRuntimes: () => [new OfflineAgentRuntime({ chunkDelayMs: 0 }), new EchoRuntime()],
  });
});
afterAll(() => server.close());

describe('a second harness runtime', () => {
  it('runs behind the same interface, reports unknown usage as null and cites files it names', async () => {
    const refused = await call(server.baseUrl, '/v1/harnesses', {
      method: 'POST',
      key,
      body: { base: 'nope' },
    });
    expect(refused.json.error.detail.supported).toEqual(['agent', 'echo']);
    const harness = (
      await call(server.baseUrl, '/v1/harnesses', { method: 'POST', key, body: { base: 'echo' } })
    ).json;
    expect(harness).toMatchObject({ defaultModel: 'echo-1', baseLabel: 'Echo (test runtime)' });
    const models = await call(server.baseUrl, '/v1/models', { key });
    expect(Object.keys(models.json.backends).sort()).toEqual(['echo', 'offline']);
    const result = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key,
      body: {
        metadata: { harness_id: harness.id },
        model: 'arbiter-offline',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'hi' },
              {
                type: 'input_file',
                filename: 'given.txt',
                file_data: `data:text/plain;base64,${Buffer.from('g').toString('base64')}`,
              },
            ],
          },
        ],
      },
    });
    expect(result.json).toMatchObject({ status: 'completed', usage: null, model: 'echo-1' });
    // arbiter-offline is not served by this harness's runtime: substituted and reported.
    expect(result.json.metadata).toMatchObject({ requested_model: 'arbiter-offline', model_fallback: true });
    const message = result.json.output[0];
    expect(message.content[0].text).toBe('echo: hi\n\nFiles: given.txt');
    expect(message.content[0].annotations[0]).toMatchObject({ filename: 'given.txt' });
  });
});

describe('choosing the harness bases', () => {
  it('refuses createRuntimes together with the default bases’ agent or acp options instead of ignoring them', async () => {
    await expect(
      startUhpTestServer({ createRuntimes: () => [new EchoRuntime()], acp: { presets: false } }),
    ).rejects.toThrow(/createRuntimes replaces the default agent and acp bases/);
  });
});
