// The team gate's costs over real HTTP on a real `arbiter serve` (SQLite, UHP API off):
//   1. POST /v1/gate/reports of full batches (100 verdict records, typical sizes), as a hook's
//      flusher sends them;
//   2. then, over everything stored, GET /v1/gate/audit/verify (walks and rehashes the whole
//      chain), a page of /v1/gate/records, /v1/gate/stats and /v1/gate/policy, each --reads times.
// Run: npx tsx bench/gate-team-reports.mjs [--batches 50] [--reads 5]

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../packages/server/src/server.ts';

const { values } = parseArgs({
  options: { batches: { type: 'string', default: '50' }, reads: { type: 'string', default: '5' } },
});
const batches = Number(values.batches);
const reads = Number(values.reads);
const percentile = (samples, p) => [...samples].sort((a, b) => a - b)[Math.floor((samples.length - 1) * p)];
const fmt = (ms) => `${ms.toFixed(1)} ms`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-bench-gate-team-'));
const server = await startServer({ port: 0, dataDir, harness: false, logger: false });
const headers = { authorization: `Bearer ${server.initialKey}`, 'content-type': 'application/json' };
const hex = (char) => char.repeat(64);
// A verdict as a hook sends it: an ASK of a shell command, half of them then run (an outcome).
const verdict = (index) => ({
  kind: 'verdict',
  id: randomUUID(),
  time: new Date().toISOString(),
  host: 'claude-code',
  session: `session-${index % 7}`,
  tool: 'Bash',
  call_key: hex(String(index % 10)),
  program: 'npm',
  call: { command: `npm run build --step ${index}`, summary: 'npm run build' },
  project: 'arbiter',
  verdict: 'ASK',
  effective: 'ASK',
  rule: 4,
  decided_by: 'gate',
  reason: 'the analysis asks: npm run runs a script of the project',
  answers: { is_read_only: false, risk: 0.4, in_grant: 'no' },
  pack: { name: 'tool-gate', version: '1.0.0', sha256: hex('b') },
  call_sha256: hex('c'),
  team_policy_sha256: null,
  model: 'arbiter-latest',
});
const outcome = (of) => ({ ...of, kind: 'outcome', id: randomUUID(), outcome: 'ran' });

try {
  const posts = [];
  for (let batch = 0; batch < batches; batch++) {
    const records = [];
    while (records.length < 100) {
      const made = verdict(batch * 100 + records.length);
      records.push(made);
      if (records.length % 2 === 0 && records.length < 100) {
        const {
          program,
          call,
          project,
          verdict: v,
          effective,
          rule,
          decided_by,
          reason,
          answers,
          pack,
          call_sha256,
          team_policy_sha256,
          model,
          ...base
        } = made;
        records.push(outcome(base));
      }
    }
    const started = performance.now();
    const answer = await fetch(`${server.url}/v1/gate/reports`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ records }),
    });
    const body = await answer.json();
    posts.push(performance.now() - started);
    if (answer.status !== 200 || body.accepted !== 100)
      throw new Error(`report refused: ${JSON.stringify(body)}`);
  }
  console.log(
    `POST /v1/gate/reports, 100 records: median ${fmt(percentile(posts, 0.5))}, p90 ${fmt(percentile(posts, 0.9))} over ${batches} batches`,
  );
  for (const route of [
    '/v1/gate/audit/verify',
    '/v1/gate/records?limit=50',
    '/v1/gate/stats',
    '/v1/gate/policy',
  ]) {
    const samples = [];
    for (let read = 0; read < reads; read++) {
      const started = performance.now();
      const answer = await fetch(`${server.url}${route}`, { headers });
      await answer.text();
      samples.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`${route}: ${answer.status}`);
    }
    console.log(
      `GET ${route} over ${batches * 100} entries: median ${fmt(percentile(samples, 0.5))} of ${reads}`,
    );
  }
} finally {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
