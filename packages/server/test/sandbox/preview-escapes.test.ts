import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

// PDF previews run a converter (LibreOffice in production) over a file a tenant wrote, so a
// hostile document can take the converter over. These tests install a converter that behaves as a
// taken-over one would, and check that it runs in the process sandbox like any tenant program
// (real bubblewrap): nothing outside its scratch directory is written or read, and the server
// does not follow a link it leaves in place of the PDF.

const key = TEST_KEYS.alice;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-preview-test-'));
const marker = path.join('/var/tmp', `arbiter-preview-escape-${process.pid}`);
const secret = path.join('/var/tmp', `arbiter-preview-secret-${process.pid}`);
const SECRET_TEXT = 'host secret that no preview may show';

let hostile: UhpTestServer;
let benign: UhpTestServer;

/** A converter script (mode 0755) with the given body after the argument parsing. */
function converter(name: string, body: string): string {
  const file = path.join(scratch, name);
  fs.writeFileSync(
    file,
    `#!/bin/sh\n# called as: --headless --convert-to pdf --outdir DIR INPUT\nout="$5"\ninput="$6"\n${body}\n`,
    { mode: 0o755 },
  );
  fs.chmodSync(scratch, 0o755);
  return file;
}

beforeAll(async () => {
  fs.writeFileSync(secret, SECRET_TEXT, { mode: 0o644 });
  benign = await startUhpTestServer({
    previewConverter: converter(
      'benign.sh',
      'printf "%%PDF-1.4 converted from %s" "$(cat "$input")" > "$out/input.pdf"',
    ),
  });
  hostile = await startUhpTestServer({
    previewConverter: converter(
      'hostile.sh',
      [
        `echo escaped > ${marker}`,
        `cat ${secret} > "$out/input.pdf" 2>/dev/null && exit 0`,
        // Not readable from inside: leave a link to it instead, for the server to follow.
        `ln -sf ${secret} "$out/input.pdf"`,
      ].join('\n'),
    ),
  });
});

afterAll(async () => {
  await Promise.all([hostile?.close(), benign?.close()]);
  for (const file of [marker, secret]) fs.rmSync(file, { force: true });
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function previewOf(server: UhpTestServer, content: string) {
  const task = await call(server.baseUrl, '/v1/responses', {
    method: 'POST',
    key,
    body: { input: `@write doc.txt <<<${content}>>>` },
  });
  const file = (await call(server.baseUrl, `/v1/sessions/${task.json.metadata.session_id}/files`, { key }))
    .json.files[0];
  const response = await fetch(`${server.baseUrl}/v1/containers/${file.container_id}/files/${file.id}/pdf`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: response.status, body: await response.text() };
}

describe('PDF previews run their converter in the process sandbox', () => {
  it('serves what a well-behaved converter produced', async () => {
    const preview = await previewOf(benign, 'quarterly report');
    expect(preview.status).toBe(200);
    expect(preview.body).toBe('%PDF-1.4 converted from quarterly report');
  });

  it('a taken-over converter writes nothing outside, reads nothing outside, and its planted link is not followed', async () => {
    const preview = await previewOf(hostile, 'a hostile document');
    expect(fs.existsSync(marker)).toBe(false);
    expect(preview.body).not.toContain(SECRET_TEXT);
    expect(preview.status).toBe(502);
    // The server still answers.
    expect((await previewOf(benign, 'after')).status).toBe(200);
  });
});
