import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualTaskClock } from '../support/manual-task-clock.js';
import {
  call,
  expectWellFormedStream,
  principalCalls,
  readEvents,
  until,
} from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

const key = TEST_KEYS.alice;
const clock = new ManualTaskClock();
let server: UhpTestServer;
const { post } = principalCalls(() => server.baseUrl, key);
beforeAll(async () => {
  server = await startUhpTestServer({ clock });
});
afterAll(() => server.close());

describe('task options', () => {
  it('store: false returns the result once and then keeps it unreadable', async () => {
    const result = await post({ input: 'Reply with exactly: ephemeral', store: false });
    expect(result.json).toMatchObject({ status: 'completed', store: false });
    expect((await call(server.baseUrl, `/v1/responses/${result.json.id}`, { key })).status).toBe(404);
    // The session still continues from it.
    const next = await post({ input: 'Reply with exactly: next', previous_response_id: result.json.id });
    expect(next.json.metadata.session_id).toBe(result.json.metadata.session_id);
  });

  it('applies the harness step and time budgets when the request sets none', async () => {
    const harness = (
      await call(server.baseUrl, '/v1/harnesses', {
        method: 'POST',
        key,
        body: { base: 'agent', max_step: 1, timeout_seconds: 1 },
      })
    ).json;
    const steps = await post({ input: '@list\n@list', metadata: { harness_id: harness.id } });
    expect(steps.json.incomplete_details).toEqual({ reason: 'max_step' });
    const waiting = clock.pending;
    const timed = post({ input: '@sleep 5000', metadata: { harness_id: harness.id } });
    // The harness's 1 s timeout and the model's 5 s sleep are both set; 1 s later the task ends.
    await clock.untilPending(waiting + 2);
    await clock.advance(1000);
    expect((await timed).json.incomplete_details).toEqual({ reason: 'timeout_seconds' });
    const overridden = await post({
      input: '@list\n@list',
      metadata: { harness_id: harness.id },
      max_step: 5,
    });
    expect(overridden.json.status).toBe('completed');
  });

  it('passes instructions and the system prompt as standing instructions and counts them as input', async () => {
    const plain = await post({ input: 'Reply with exactly: x' });
    const instructed = await post({
      input: 'Reply with exactly: x',
      instructions: 'four words of instructions',
    });
    expect(instructed.json.usage.input_tokens - plain.json.usage.input_tokens).toBe(4);
  });

  it('accepts an inline image as a file in the workspace', async () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
    const result = await post({
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: '@list' },
            { type: 'input_image', filename: 'pic.png', image_url: `data:image/png;base64,${png}` },
          ],
        },
      ],
    });
    const listing = result.json.output.find((item: { type: string }) => item.type === 'function_call_output');
    expect(listing.output).toBe('pic.png');
  });

  it('holds a stream for a reader that stops reading, then delivers every event in order', async () => {
    const response = await fetch(`${server.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'Count from 1 to 5000', stream: true }),
    });
    // Nobody reads until the task has ended: every event is then held by the server.
    await until(async () => {
      const { json } = await call(server.baseUrl, '/v1/sessions?limit=100', { key });
      const session = json.sessions.find(
        (entry: { title?: string }) => entry.title === 'Count from 1 to 5000',
      );
      return session?.status === 'idle' ? true : undefined;
    }, 30_000);
    const { events } = await readEvents(response, performance.now());
    expectWellFormedStream(events);
    const text = events.at(-1)!.data.response.output.at(-1).content[0].text as string;
    expect(text.split('\n')).toHaveLength(5000);
  });
});
