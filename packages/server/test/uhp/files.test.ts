import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectSchema, principalCalls } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

const key = TEST_KEYS.alice;
const MAX_FILE_BYTES = 4096;
let server: UhpTestServer;
const { post, get } = principalCalls(() => server.baseUrl, key);
beforeAll(async () => {
  server = await startUhpTestServer({ limits: { maxFileBytes: MAX_FILE_BYTES }, previewConverter: null });
});
afterAll(() => server.close());

const dataUrl = (text: string) => `data:text/plain;base64,${Buffer.from(text).toString('base64')}`;

function upload(bytes: Buffer, filename: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  return call(server.baseUrl, '/v1/files', { method: 'POST', key, raw: form });
}

describe('files in', () => {
  it('accepts an inline data URL, materialised in the workspace for the agent', async () => {
    const result = await post({
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: '@read given.txt' },
            { type: 'input_file', filename: 'given.txt', file_data: dataUrl('brief-42') },
          ],
        },
      ],
    });
    expect(result.json.status).toBe('completed');
    const toolOutput = result.json.output.find(
      (item: { type: string }) => item.type === 'function_call_output',
    );
    expect(toolOutput.output).toBe('brief-42');
    const items = await get(`/v1/responses/${result.json.id}/input_items`);
    expect(JSON.stringify(items.json)).not.toContain('base64');
    // Inputs are not reported back as artifacts of the task.
    expect((await get(`/v1/sessions/${result.json.metadata.session_id}/files`)).json.files).toEqual([]);
  });

  it('accepts a multipart upload and its id as task input', async () => {
    const uploaded = await upload(Buffer.from('uploaded words'), 'notes.txt');
    expect(uploaded.status).toBe(200);
    expectSchema(uploaded.json, 'File');
    expect(uploaded.json).toMatchObject({ object: 'file', filename: 'notes.txt', bytes: 14 });
    const result = await post({
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: '@read notes.txt' },
            { type: 'input_file', file_id: uploaded.json.id },
          ],
        },
      ],
    });
    expect(JSON.stringify(result.json.output)).toContain('uploaded words');
    const foreign = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: TEST_KEYS.bob,
      body: { input: [{ role: 'user', content: [{ type: 'input_file', file_id: uploaded.json.id }] }] },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.code).toBe('file_not_found');
  });

  it('refuses a file over the documented limit with 413 file_too_large and detail.max_bytes', async () => {
    const tooBig = await upload(Buffer.alloc(MAX_FILE_BYTES + 1, 1), 'big.bin');
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.error).toMatchObject({
      code: 'file_too_large',
      detail: { max_bytes: MAX_FILE_BYTES },
    });
    const exact = await upload(Buffer.alloc(MAX_FILE_BYTES, 1), 'exact.bin');
    expect(exact.json.bytes).toBe(MAX_FILE_BYTES);
    const inline = await post({
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_file', filename: 'x.txt', file_data: dataUrl('x'.repeat(MAX_FILE_BYTES + 1)) },
          ],
        },
      ],
    });
    expect(inline.status).toBe(413);
    expect(inline.json.error.detail.max_bytes).toBe(MAX_FILE_BYTES);
  });

  it('rejects a malformed data URL and remote URLs with invalid_input', async () => {
    const bad = await post({
      input: [{ role: 'user', content: [{ type: 'input_file', file_data: 'https://example.com/x' }] }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBe('input[0].content[0]');
  });
});

describe('artifacts out', () => {
  it('cites produced files on the message, lists them with earlier tasks included, and downloads raw bytes', async () => {
    const first = await post({ input: '@write report.md <<<# Report\n>>>\n@say written' });
    const message = first.json.output.findLast((item: { type: string }) => item.type === 'message');
    const annotation = message.content[0].annotations[0];
    expectSchema(annotation, 'Annotation');
    expect(annotation).toMatchObject({ type: 'container_file_citation', filename: 'report.md' });
    expect(message.content[0].text.slice(annotation.start_index, annotation.end_index)).toBe('report.md');
    const second = await post({
      input: '@write data/out.csv <<<a,b\n1,2\n>>>',
      previous_response_id: first.json.id,
    });
    expect(second.json.status).toBe('completed');
    const listing = await get(`/v1/sessions/${first.json.metadata.session_id}/files`);
    expect(listing.json.files.map((file: { filename: string }) => file.filename)).toEqual([
      'report.md',
      'data/out.csv',
    ]);
    for (const file of listing.json.files) expectSchema(file, 'File');

    const download = await fetch(annotation.download_url, { headers: { authorization: `Bearer ${key}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('text/markdown');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-disposition')).toContain('filename="report.md"');
    expect(await download.text()).toBe('# Report\n');

    const csv = listing.json.files[1];
    const csvDownload = await get(`/v1/containers/${csv.container_id}/files/${csv.id}/content`);
    expect(csvDownload.text).toBe('a,b\n1,2\n');
    expect(csvDownload.headers.get('content-disposition')).toContain('filename="out.csv"');
  });

  it('downloads every artifact of a session as one zip', async () => {
    const task = await post({ input: '@write one.txt <<<1>>>\n@write two.txt <<<2>>>' });
    const archive = await fetch(
      `${server.baseUrl}/v1/sessions/${task.json.metadata.session_id}/files/archive`,
      {
        headers: { authorization: `Bearer ${key}` },
      },
    );
    expect(archive.status).toBe(200);
    expect(archive.headers.get('content-type')).toBe('application/zip');
    const bytes = Buffer.from(await archive.arrayBuffer());
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(bytes.includes(Buffer.from('one.txt'))).toBe(true);
    expect(bytes.includes(Buffer.from('two.txt'))).toBe(true);
  });

  it('answers PDF previews with 501 preview_unavailable when no converter is installed, and serves PDFs as they are', async () => {
    const task = await post({ input: '@write doc.txt <<<text>>>\n@write paper.pdf <<<%PDF-1.4 fake>>>' });
    const files = (await get(`/v1/sessions/${task.json.metadata.session_id}/files`)).json.files;
    const preview = await get(`/v1/containers/${files[0].container_id}/files/${files[0].id}/pdf`);
    expect(preview.status).toBe(501);
    expect(preview.json.error).toMatchObject({ type: 'server_error', code: 'preview_unavailable' });
    const pdf = await get(`/v1/containers/${files[1].container_id}/files/${files[1].id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });

  it('answers 502 preview_failed when the converter fails', async () => {
    const failing = await startUhpTestServer({ previewConverter: '/bin/false' });
    try {
      const task = await call(failing.baseUrl, '/v1/responses', {
        method: 'POST',
        key,
        body: { input: '@write doc.txt <<<text>>>' },
      });
      const file = (
        await call(failing.baseUrl, `/v1/sessions/${task.json.metadata.session_id}/files`, { key })
      ).json.files[0];
      const preview = await call(
        failing.baseUrl,
        `/v1/containers/${file.container_id}/files/${file.id}/pdf`,
        { key },
      );
      expect(preview.status).toBe(502);
      expect(preview.json.error.code).toBe('preview_failed');
    } finally {
      await failing.close();
    }
  });
});

describe('traversal probes', () => {
  it('never lets an id reach outside its container', async () => {
    const task = await post({ input: '@write inside.txt <<<in>>>' });
    const file = (await get(`/v1/sessions/${task.json.metadata.session_id}/files`)).json.files[0];
    const other = await post({ input: '@write other.txt <<<other>>>' });
    const otherFile = (await get(`/v1/sessions/${other.json.metadata.session_id}/files`)).json.files[0];
    const container = file.container_id;
    const probes = [
      `/v1/containers/${container}/files/../../etc/passwd/content`,
      `/v1/containers/${container}/files/..%2f..%2fetc%2fpasswd/content`,
      `/v1/containers/${container}/files/%2e%2e%2f%2e%2e%2fetc%2fpasswd/content`,
      `/v1/containers/${container}/files/%2Fetc%2Fpasswd/content`,
      `/v1/containers/..%2f..%2f/files/${file.id}/content`,
      `/v1/containers/${container}/files/${file.id}%2f..%2f..%2farbiter.db/content`,
      // A real file id, but from another container.
      `/v1/containers/${container}/files/${otherFile.id}/content`,
    ];
    for (const probe of probes) {
      const result = await fetch(`${server.baseUrl}${probe}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect([400, 404], probe).toContain(result.status);
      const body = await result.text();
      expect(body).not.toContain('root:');
      expect(body).not.toContain('SQLite');
    }
  });

  it('keeps workspace tools inside the session directory', async () => {
    const result = await post({
      input:
        '@read ../../../../etc/passwd\n@read /etc/passwd\n@write ../escape.txt <<<x>>>\n@shell ln -s /etc linked\n@read linked/passwd',
    });
    const outputs = result.json.output
      .filter((item: { type: string }) => item.type === 'function_call_output')
      .map((item: { output: string }) => item.output);
    expect(outputs[0]).toMatch(/^error: /);
    expect(outputs[1]).toMatch(/^error: /);
    expect(outputs[2]).toMatch(/^error: /);
    expect(outputs[4]).toMatch(/^error: .*link/);
    expect(JSON.stringify(result.json)).not.toContain('root:');
  });
});
