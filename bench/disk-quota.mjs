// A principal's disk quota (issue 29): one turn's `@shell` writes --mib MiB (files of 256 MiB, the
// sandbox's file-size limit) in the real sandbox of `arbiter serve` (`startServer`, SQLite), with
// `limits.diskBytesPerPrincipal` at --quota-mib MiB (0: no quota). Prints the turn's outcome, the
// data directory's size after it (`du -sb`), and how the principal's next task is answered.
// Run: npx tsx bench/disk-quota.mjs [--mib 1024] [--quota-mib 512]

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { mib: { type: 'string', default: '1024' }, 'quota-mib': { type: 'string', default: '512' } },
});
const mib = Number(values.mib);
const quotaMib = Number(values['quota-mib']);
const { startServer } = await import('../packages/server/src/server.ts');
const { serverConfigSchema } = await import('../packages/server/src/config/server-config.ts');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-disk-quota-'));
const server = await startServer({
  port: 0,
  dataDir,
  logger: false,
  config: serverConfigSchema.parse({
    limits: { diskBytesPerPrincipal: quotaMib === 0 ? null : quotaMib * 1024 * 1024 },
  }),
  harness: { offlineChunkDelayMs: 0, toolGating: { mode: 'shadow' } },
});
const task = async (input) => {
  const response = await fetch(`${server.url}/api/harness/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.initialKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ input }),
  });
  return { status: response.status, body: await response.json() };
};
const du = () => Number(execFileSync('du', ['-sb', dataDir], { encoding: 'utf8' }).split('\t')[0]);
try {
  const files = Math.ceil(mib / 256);
  const each = Math.min(256, mib);
  const script = Array.from({ length: files }, (_, i) => `head -c ${each}M /dev/zero > f${i}.bin`).join(
    ' && ',
  );
  const before = du();
  const started = performance.now();
  const turn = await task(`@shell ${script}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`quota: ${quotaMib === 0 ? 'none' : `${quotaMib} MiB`}; the turn wrote ${files} × ${each} MiB`);
  console.log(
    `turn: ${seconds} s, ${turn.body.status}${turn.body.error ? ` (${turn.body.error.code}: ${turn.body.error.message})` : ''}`,
  );
  console.log(`data directory grew by ${((du() - before) / 1024 / 1024).toFixed(0)} MiB`);
  const next = await task('@say hello');
  console.log(
    `next task: ${next.status}${next.body.error ? ` ${next.body.error.code}: ${next.body.error.message}` : ` ${next.body.status}`}`,
  );
} finally {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
