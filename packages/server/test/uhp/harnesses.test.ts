import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectSchema, readEvents } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

const key = TEST_KEYS.alice;
let server: UhpTestServer;
beforeAll(async () => {
  server = await startUhpTestServer();
});
afterAll(() => server.close());

const request = (method: string, route: string, body?: unknown) =>
  call(server.baseUrl, route, { method, key, body });

const BINARY = Buffer.from([0, 1, 2, 3, 254, 255, 10, 13]).toString('base64');
const SKILL = {
  name: 'report-writer',
  files: [
    { path: 'SKILL.md', content: '---\nname: report-writer\n---\nUse references/style.md.\n' },
    { path: 'references/style.md', content: 'Tabs\tand trailing spaces  \r\nkept.\n' },
    { path: 'assets/logo.bin', content_b64: BINARY },
  ],
};

describe('harness list, read and models', () => {
  it('has a default agent harness on the offline model on a fresh server', async () => {
    const list = await request('GET', '/v1/harnesses');
    expect(list.json.harnesses).toHaveLength(1);
    const harness = list.json.harnesses[0];
    expectSchema(harness, 'Harness');
    expect(harness).toMatchObject({ object: 'harness', base: 'agent', defaultModel: 'arbiter-offline' });
    const models = await request('GET', '/v1/models');
    expectSchema(models.json, 'ModelCatalog');
    expect(models.json.backends.offline.models[0]).toMatchObject({
      id: 'arbiter-offline',
      available: true,
      default: true,
    });
    expect(models.json.backends.offline.models[0].label).toMatch(/offline.*deterministic/i);
    const harnessModels = await request('GET', `/v1/harnesses/${harness.id}/models`);
    expectSchema(harnessModels.json, 'HarnessModels');
    expect(harnessModels.json).toMatchObject({
      harness_id: harness.id,
      default: 'arbiter-offline',
      fallback: 'arbiter-offline',
    });
  });
});

describe('harness management', () => {
  it('creates, replaces and deletes; id, base and createdAt never change', async () => {
    const created = await request('POST', '/v1/harnesses', {
      name: 'writer',
      base: 'agent',
      default_model: 'arbiter-offline',
      max_step: 5,
    });
    expect(created.status).toBe(200);
    expectSchema(created.json, 'Harness');
    expect(created.json).toMatchObject({ name: 'writer', maxStep: 5, timeoutSeconds: null });
    const replaced = await request('PUT', `/v1/harnesses/${created.json.id}`, {
      name: 'renamed',
      system_prompt: 'Be brief.',
    });
    expect(replaced.json).toMatchObject({
      id: created.json.id,
      base: 'agent',
      createdAt: created.json.createdAt,
      name: 'renamed',
      systemPrompt: 'Be brief.',
      maxStep: null,
    });
    const rebase = await request('PUT', `/v1/harnesses/${created.json.id}`, { name: 'x', base: 'acp' });
    expect(rebase.status).toBe(422);
    const task = await request('POST', '/v1/responses', {
      input: 'Reply with exactly: kept',
      metadata: { harness_id: created.json.id },
    });
    expect((await request('DELETE', `/v1/harnesses/${created.json.id}`)).status).toBe(200);
    expect((await request('GET', `/v1/harnesses/${created.json.id}`)).status).toBe(404);
    expect((await request('DELETE', `/v1/harnesses/${created.json.id}`)).status).toBe(404);
    // Sessions and responses that used a deleted harness stay readable.
    expect((await request('GET', `/v1/responses/${task.json.id}`)).json.status).toBe('completed');
    expect((await request('GET', `/v1/sessions/${task.json.metadata.session_id}`)).status).toBe(200);
  });

  it('refuses an unsupported base with 422 unsupported_base listing the supported ones', async () => {
    const result = await request('POST', '/v1/harnesses', { name: 'x', base: 'definitely-not-real' });
    expect(result.status).toBe(422);
    expect(result.json.error).toMatchObject({
      code: 'unsupported_base',
      detail: { supported: ['agent', 'acp'] },
    });
    const model = await request('POST', '/v1/harnesses', { base: 'agent', default_model: 'gpt-nonexistent' });
    expect(model.json.error.code).toBe('model_unavailable');
  });

  it('keeps skill folders byte-exact through create, read and a PUT of what was read', async () => {
    const created = await request('POST', '/v1/harnesses', {
      name: 'skilled',
      base: 'agent',
      skills: [SKILL],
    });
    const files = await request('GET', `/v1/harnesses/${created.json.id}/skills/report-writer/files`);
    expect(files.json.files).toEqual(SKILL.files);
    const read = (await request('GET', `/v1/harnesses/${created.json.id}`)).json;
    await request('PUT', `/v1/harnesses/${created.json.id}`, {
      name: 'renamed',
      skills: read.skills,
      mcp_servers: read.mcpServers,
      disabled_tools: read.disabledTools,
    });
    const after = await request('GET', `/v1/harnesses/${created.json.id}/skills/report-writer/files`);
    expect(after.json.files).toEqual(SKILL.files);
    expect((await request('GET', `/v1/harnesses/${created.json.id}/skills/nope/files`)).status).toBe(404);
  });

  it('materialises the whole skill folder for the agent', async () => {
    const created = await request('POST', '/v1/harnesses', {
      name: 'skilled',
      base: 'agent',
      skills: [SKILL],
    });
    const task = await request('POST', '/v1/responses', {
      input:
        '@read .arbiter/skills/report-writer/references/style.md\n@shell od -An -tx1 .arbiter/skills/report-writer/assets/logo.bin',
      metadata: { harness_id: created.json.id },
    });
    const outputs = task.json.output
      .filter((item: { type: string }) => item.type === 'function_call_output')
      .map((item: { output: string }) => item.output);
    expect(outputs[0]).toBe('Tabs\tand trailing spaces  \r\nkept.\n');
    expect(outputs[1].replace(/\s+/g, ' ')).toContain('00 01 02 03 fe ff 0a 0d');
    // The skills are not reported as artifacts of the task.
    expect((await request('GET', `/v1/sessions/${task.json.metadata.session_id}/files`)).json.files).toEqual(
      [],
    );
  });

  it('refuses skill bundles without SKILL.md, with escaping paths or broken base64', async () => {
    const cases = [
      [{ name: 's', files: [{ path: 'notes.md', content: 'x' }] }, 'skills[0].files'],
      [
        {
          name: 's',
          files: [
            { path: 'SKILL.md', content: 'x' },
            { path: '../escape.md', content: 'x' },
          ],
        },
        'skills[0].files[1].path',
      ],
      [
        {
          name: 's',
          files: [
            { path: 'SKILL.md', content: 'x' },
            { path: '/abs.md', content: 'x' },
          ],
        },
        'skills[0].files[1].path',
      ],
      [{ name: 's', files: [{ path: 'SKILL.md', content_b64: '***' }] }, 'skills[0].files[0].content_b64'],
      [{ name: '../s', content: 'x' }, 'skills[0].name'],
    ] as const;
    for (const [skill, param] of cases) {
      const result = await request('POST', '/v1/harnesses', { name: 'bad', base: 'agent', skills: [skill] });
      expect(result.status, param).toBe(422);
      expect(result.json.error.param).toBe(param);
    }
    const shorthand = await request('POST', '/v1/harnesses', {
      base: 'agent',
      skills: [{ name: 'short', content: '# Short' }],
    });
    expect(shorthand.json.skills[0].files).toEqual([{ path: 'SKILL.md', content: '# Short' }]);
  });

  it('persists MCP entries (enabled or not) and disabled tools, never returning credentials', async () => {
    const created = await request('POST', '/v1/harnesses', {
      base: 'agent',
      mcp_servers: [
        {
          name: 'docs server',
          url: 'https://mcp.example.invalid/mcp',
          enabled: false,
          auth: 'sk-secret-token',
          headers: { 'x-api-key': 'hdr-secret' },
        },
        { name: 'live', url: 'http://127.0.0.1:9/mcp' },
      ],
      disabled_tools: ['shell'],
    });
    const read = (await request('GET', `/v1/harnesses/${created.json.id}`)).json;
    expect(read.mcpServers[0]).toMatchObject({
      name: 'docs_server',
      enabled: false,
      transport: 'http',
      auth: '[redacted]',
    });
    expect(read.mcpServers[1]).toMatchObject({ name: 'live', enabled: true });
    expect(JSON.stringify(read)).not.toContain('secret');
    expect(read.disabledTools).toEqual(['shell']);
    for (const server of read.mcpServers) expectSchema(server, 'McpServer');

    const task = await request('POST', '/v1/responses', {
      input: '@shell echo hi\n@list',
      metadata: { harness_id: created.json.id },
    });
    const outputs = task.json.output.filter((item: { type: string }) => item.type === 'function_call_output');
    expect(outputs[0].output).toBe('error: the tool "shell" is disabled for this harness');
    expect(task.json.status).toBe('completed');
    const stream = await fetch(`${server.baseUrl}/v1/responses/${task.json.id}?stream=true`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const { events } = await readEvents(stream, performance.now());
    const warnings = events.filter((event) => event.data.type === 'error');
    // Only the enabled entry is mentioned; the disabled one is not touched at all.
    expect(warnings.map((event) => event.data.code)).toEqual(['arbiter_mcp_not_supported']);
    expect(warnings[0]!.data.message).toContain('"live"');
  });
});

describe('harness live events', () => {
  it('feeds every event of the harness sessions as they happen', async () => {
    const harness = (await request('POST', '/v1/harnesses', { name: 'watched', base: 'agent' })).json;
    const feed = await fetch(`${server.baseUrl}/v1/harnesses/${harness.id}/events`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(feed.headers.get('content-type')).toContain('text/event-stream');
    const reading = readEvents(feed, performance.now(), {
      stopWhen: (event) => event.data.type === 'response.completed',
    });
    const task = await request('POST', '/v1/responses', {
      input: 'Reply with exactly: watched',
      metadata: { harness_id: harness.id },
    });
    // Another harness's task never shows up in this feed.
    await request('POST', '/v1/responses', { input: 'Reply with exactly: elsewhere' });
    const bobFeed = await call(server.baseUrl, `/v1/harnesses/${harness.id}/events`, { key: TEST_KEYS.bob });
    expect(bobFeed.status).toBe(404);
    const { events } = await reading;
    expect(events.length).toBeGreaterThan(0);
    expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_event, index) => index));
    expect(new Set(events.map((event) => event.data.response_id))).toEqual(new Set([task.json.id]));
    expect(events.at(-1)!.data.type).toBe('response.completed');
  });
});
