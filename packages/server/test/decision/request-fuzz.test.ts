import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decisionResponseSchema, errorBodySchema } from '@arbiter/decision';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server.js';
import { buildTestApp, SUPPORT_TICKET, type TestApp } from '../support/decision-test-app.js';

/** Bodies near the valid shape, so the fuzzer reaches deep into validation and the engine. */
/** Member names, including Object.prototype members that a table lookup could reach. */
const memberName = (maxLength: number) =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.constantFrom('constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'),
  );
const description = fc.oneof(fc.string({ maxLength: 20 }), fc.constant(null), fc.integer(), fc.boolean());
const instructions = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.dictionary(memberName(5), fc.jsonValue()),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.integer(),
);
const question = fc.record(
  {
    type: fc.oneof(fc.constantFrom('noul', 'choice', 'score'), fc.string({ maxLength: 6 })),
    instructions,
    criteria: fc.oneof(
      fc.dictionary(memberName(6), description, { maxKeys: 8 }),
      fc.array(description, { maxLength: 12 }),
      fc.constant(null),
      fc.record({ true: description, false: description }, { requiredKeys: [] }),
    ),
  },
  { requiredKeys: [] },
);
const nearValidBody = fc.record(
  {
    model: fc.oneof(
      fc.constantFrom('arbiter-latest', 'jev-latest', 'arbiter-1.0.0', 'nope-1.0.0'),
      fc.string({ maxLength: 8 }),
      fc.integer(),
    ),
    state: fc.oneof(fc.string({ maxLength: 200 }), fc.jsonValue({ maxDepth: 3 })),
    questions: fc.oneof(
      fc.dictionary(memberName(10), question, { maxKeys: 5 }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    pack: fc.oneof(
      fc.record({ name: fc.string({ maxLength: 10 }), version: fc.string({ maxLength: 5 }) }),
      fc.jsonValue({ maxDepth: 1 }),
    ),
  },
  { requiredKeys: [] },
);
/** Any JSON document, or any text at all (most of it not JSON). */
const anyPayload = fc.oneof(
  nearValidBody.map((body) => JSON.stringify(body)),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 200 }),
  fc.constant(JSON.stringify(SUPPORT_TICKET)),
);

function expectWellFormed(status: number, body: string) {
  expect(status).toBeLessThan(500);
  const parsed = JSON.parse(body) as unknown;
  if (status === 200) decisionResponseSchema.parse(parsed);
  else errorBodySchema.parse(parsed);
}

let subject: TestApp;
let server: RunningServer;
let dataDir: string;
beforeAll(async () => {
  subject = await buildTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-fuzz-'));
  server = await startServer({ port: 0, dataDir, harness: false });
});
afterAll(async () => {
  await subject.close();
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('random request bodies', () => {
  it('never produce a 5xx or a malformed response (in-process inject)', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyPayload,
        fc.constantFrom('application/json', 'application/json; charset=utf-8'),
        async (payload, contentType) => {
          const response = await subject.app.inject({
            method: 'POST',
            url: '/v1/decision',
            headers: { 'content-type': contentType, ...subject.authorization },
            payload,
          });
          expectWellFormed(response.statusCode, response.body);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never produce a 5xx or a crash over real HTTP on loopback', async () => {
    const authorization = `Bearer ${server.initialKey}`;
    await fc.assert(
      fc.asyncProperty(anyPayload, fc.constantFrom('/v1/decision', '/v1/systemone'), async (payload, url) => {
        const response = await fetch(server.url + url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization },
          body: payload,
        });
        expectWellFormed(response.status, await response.text());
      }),
      { numRuns: 80 },
    );
    // Still serving after the barrage.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});
