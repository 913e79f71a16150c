import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostProcessesWith } from '../sandbox/escape-attempts.js';
import { call, until } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

let server: UhpTestServer;
beforeAll(async () => {
  server = await startUhpTestServer();
});
afterAll(() => server.close());

describe('two principals', () => {
  it('answers 404 for every operation on another principal’s objects and leaves them untouched', async () => {
    const alice = (method: string, route: string, body?: unknown) =>
      call(server.baseUrl, route, { method, key: TEST_KEYS.alice, body });
    const bob = (method: string, route: string, body?: unknown) =>
      call(server.baseUrl, route, { method, key: TEST_KEYS.bob, body });

    const harness = (
      await alice('POST', '/v1/harnesses', {
        name: 'private',
        base: 'agent',
        skills: [{ name: 's', content: '# S' }],
      })
    ).json;
    const task = (
      await alice('POST', '/v1/responses', {
        input: '@write private.txt <<<alice only>>>',
        metadata: { harness_id: harness.id },
      })
    ).json;
    const running = (await alice('POST', '/v1/responses', { input: '@sleep 30000', background: true })).json;
    const session = task.metadata.session_id;
    const file = (await alice('GET', `/v1/sessions/${session}/files`)).json.files[0];
    const form = new FormData();
    form.append('file', new Blob(['upload']), 'up.txt');
    const upload = (
      await call(server.baseUrl, '/v1/files', { method: 'POST', key: TEST_KEYS.alice, raw: form })
    ).json;
    await alice('POST', `/v1/sessions/${session}/share`);

    const probes: [string, string, unknown?][] = [
      ['GET', `/v1/harnesses/${harness.id}`],
      ['PUT', `/v1/harnesses/${harness.id}`, { name: 'stolen' }],
      ['DELETE', `/v1/harnesses/${harness.id}`],
      ['GET', `/v1/harnesses/${harness.id}/models`],
      ['GET', `/v1/harnesses/${harness.id}/skills/s/files`],
      ['GET', `/v1/harnesses/${harness.id}/events`],
      ['POST', '/v1/responses', { input: 'x', metadata: { harness_id: harness.id } }],
      ['POST', '/v1/responses', { input: 'x', previous_response_id: task.id }],
      [
        'POST',
        '/v1/responses',
        { input: [{ role: 'user', content: [{ type: 'input_file', file_id: upload.id }] }] },
      ],
      ['GET', `/v1/responses/${task.id}`],
      ['GET', `/v1/responses/${task.id}?stream=true`],
      ['GET', `/v1/responses/${task.id}/input_items`],
      ['POST', `/v1/responses/${running.id}/cancel`],
      ['DELETE', `/v1/responses/${task.id}`],
      ['GET', `/v1/sessions/${session}`],
      ['GET', `/v1/sessions/${session}/turns`],
      ['GET', `/v1/sessions/${session}/files`],
      ['GET', `/v1/sessions/${session}/files/archive`],
      ['POST', `/v1/sessions/${running.metadata.session_id}/cancel`],
      ['POST', `/v1/sessions/${session}/share`],
      ['GET', `/v1/sessions/${session}/share`],
      ['DELETE', `/v1/sessions/${session}/share`],
      ['DELETE', `/v1/sessions/${session}`],
      ['DELETE', `/v1/traces/${session}`],
      ['GET', `/v1/files/${upload.id}`],
      ['GET', `/v1/containers/${file.container_id}/files/${file.id}/content`],
      ['GET', `/v1/containers/${file.container_id}/files/${file.id}/pdf`],
    ];
    for (const [method, route, body] of probes) {
      const result = await bob(method, route, body);
      expect(result.status, `${method} ${route}`).toBe(404);
      expect(result.text, `${method} ${route}`).not.toContain('alice only');
    }

    const listed = await bob('GET', '/v1/sessions');
    expect(listed.json.sessions).toEqual([]);
    const harnesses = await bob('GET', '/v1/harnesses');
    expect(harnesses.json.harnesses.map((entry: { id: string }) => entry.id)).not.toContain(harness.id);

    // Nothing of Alice's changed.
    expect((await alice('GET', `/v1/harnesses/${harness.id}`)).json.name).toBe('private');
    expect((await alice('GET', `/v1/responses/${task.id}`)).status).toBe(200);
    expect((await alice('GET', `/v1/responses/${running.id}`)).json.status).toBe('in_progress');
    expect((await alice('GET', `/v1/sessions/${session}/share`)).status).toBe(200);
    await alice('POST', `/v1/responses/${running.id}/cancel`);
  });

  it("gives principal A's tools nothing of principal B: files, processes, /tmp, sessions (real bubblewrap)", async () => {
    const marker = `${process.pid}${Date.now() % 100_000}`;
    const bobSecret = `bob-secret-${marker}`;
    const bob = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: TEST_KEYS.bob,
      body: {
        input: `@write notes.txt <<<${bobSecret}>>>\n@shell echo ${bobSecret} > /tmp/bob.txt; sleep ${marker}.25 & sleep 20`,
        background: true,
      },
    });
    const bobSession = bob.json.metadata.session_id as string;
    // Bob's program is running now, seen from the host.
    await until(async () => (hostProcessesWith(`${marker}.25`).length > 0 ? true : undefined), 10_000);
    const alice = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: TEST_KEYS.alice,
      body: {
        input: [
          "@shell for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline; echo; done",
          '@shell ls -la /tmp; cat /tmp/*',
          '@shell find / \\( -path /proc -o -path /sys -o -path /usr \\) -prune -o -print',
          '@shell ls -laR ../..; cat ../../*/workspace/*',
        ].join('\n'),
      },
    });
    expect(alice.json.status).toBe('completed');
    const outputs = alice.json.output
      .filter((item: { type: string }) => item.type === 'function_call_output')
      .map((item: { output: string }) => item.output);
    expect(outputs).toHaveLength(4);
    for (const output of outputs) {
      expect(output).toMatch(/^\[exit \d+\]/);
      expect(output).not.toContain(bobSecret);
      expect(output).not.toContain(bobSession);
      expect(output).not.toContain(marker);
    }
    // Alice sees her own shell (its limits set on its first line), so the listing itself worked.
    expect(outputs[0]).toMatch(/\/bin\/sh -c ulimit -t 60 && .* \|\| exit 126; for p in/);
    // Deleting Bob's session ends his running program and everything it started.
    const deleted = await call(server.baseUrl, `/v1/sessions/${bobSession}`, {
      method: 'DELETE',
      key: TEST_KEYS.bob,
    });
    expect(deleted.status).toBe(200);
    await until(async () => (hostProcessesWith(`${marker}.25`).length === 0 ? true : undefined), 10_000);
  });
});
