// Probes the "Low" items of issue 29 against a real `arbiter serve` (`startServer`, SQLite, offline
// model, the request log captured as JSON lines) and prints one line per check, PASS or FAIL:
//   - a NUL character in stored text: a task input and a harness name are a 400 naming it, an id
//     with a NUL in a path is a 404 (PostgreSQL: `ARBITER_UHP_TEST_TARGET=postgres-pair npx vitest
//     run packages/server/test/uhp/nul-text.test.ts`, which starts its own pair of servers);
//   - `GET /v1/admin/keys?limit=` and `GET /api/harness/v1/sessions?after=` honour their parameters;
//   - `/` and `/docs` carry the security headers the console has;
//   - a secret sent as a model name or a question id does not reach the log.
// Run: npx tsx --conditions=arbiter-source bench/issue-29-low-items.mjs   (exit status 1 when a check fails;
//      the condition loads every package from its sources, as the server under test)

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { startServer } from '../packages/server/src/server.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-low-items-'));
const lines = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    lines.push(chunk.toString());
    done();
  },
});
const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  logger: { level: 'info', stream },
  harness: { offlineChunkDelayMs: 0 },
});
const operator = server.initialKey;
const harness = `${server.url}/api/harness`;
const failures = [];
const check = (name, ok, detail = '') => {
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}${detail ? ` (${detail})` : ''}`);
  if (!ok) failures.push(name);
};
const request = async (url, { method = 'GET', key = operator, body } = {}) => {
  const response = await fetch(url, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, json };
};

try {
  // NUL, on SQLite.
  const nulTask = await request(`${harness}/v1/responses`, {
    method: 'POST',
    body: { input: '@say a\u0000b' },
  });
  check(
    'NUL in a task input: 400 invalid_input naming it',
    nulTask.status === 400 && /NUL/.test(nulTask.json?.error?.message ?? ''),
    `${nulTask.status}`,
  );
  const nulHarness = await request(`${harness}/v1/harnesses`, {
    method: 'POST',
    body: { name: 'x\u0000y', base: 'agent' },
  });
  check('NUL in a harness name: 400 naming it', nulHarness.status === 400, `${nulHarness.status}`);
  for (const route of ['/v1/sessions/hsess_a%00b', '/v1/responses/resp_a%00b']) {
    const found = await request(`${harness}${route}`);
    check(`NUL in an id of a path (${route}): 404`, found.status === 404, `${found.status}`);
  }

  // ?limit= on the key listing; ?after= on the session listing.
  for (const principal of ['p1', 'p2', 'p3'])
    await request(`${server.url}/v1/admin/keys`, { method: 'POST', body: { principal } });
  const keys = await request(`${server.url}/v1/admin/keys?limit=2`);
  const keyList = keys.json?.keys ?? keys.json?.data ?? [];
  check(
    'GET /v1/admin/keys?limit=2 answers 2 keys',
    keys.status === 200 && keyList.length === 2,
    `${keyList.length}`,
  );
  const sessions = [];
  for (let i = 0; i < 3; i++)
    sessions.push(
      (await request(`${harness}/v1/responses`, { method: 'POST', body: { input: '@say hi' } })).json,
    );
  const whole = (await request(`${harness}/v1/sessions`)).json?.sessions ?? [];
  const after = (await request(`${harness}/v1/sessions?after=${whole[0]?.id}`)).json?.sessions ?? [];
  check(
    'GET /v1/sessions?after= starts after the session named',
    whole.length >= 3 && after.length === whole.length - 1 && after[0]?.id === whole[1]?.id,
    `${whole.length} sessions, ${after.length} after the first`,
  );

  // Security headers on the pages a browser opens.
  for (const page of ['/', '/docs', '/docs/']) {
    const answer = await fetch(`${server.url}${page}`);
    await answer.arrayBuffer();
    const missing = ['content-security-policy', 'x-content-type-options', 'referrer-policy'].filter(
      (name) => !answer.headers.get(name),
    );
    check(
      `${page} carries the security headers`,
      answer.status === 200 && missing.length === 0,
      missing.join(', '),
    );
  }

  // Secrets where a name is expected: the answer may quote them, the log must not.
  const modelSecret = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
  const questionSecret = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
  const byModel = await request(`${server.url}/v1/decision`, {
    method: 'POST',
    body: { model: modelSecret, state: 's', questions: { q: { type: 'noul', instructions: 'i' } } },
  });
  const byQuestion = await request(`${server.url}/v1/decision`, {
    method: 'POST',
    body: { state: 's', questions: { [questionSecret]: { type: 'nope', instructions: 'i' } } },
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  const log = lines.join('');
  check(
    'a secret sent as a model name is not logged',
    byModel.status >= 400 && !log.includes(modelSecret),
    `${byModel.status}`,
  );
  check(
    'a secret sent as a question id is not logged',
    byQuestion.status >= 400 && !log.includes(questionSecret),
    `${byQuestion.status}`,
  );
  check('the operator key is not logged', !log.includes(operator));
} finally {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(
  failures.length === 0 ? 'all checks passed' : `${failures.length} failed: ${failures.join('; ')}`,
);
process.exitCode = failures.length === 0 ? 0 : 1;
