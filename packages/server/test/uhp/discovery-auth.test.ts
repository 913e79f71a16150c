import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { uhpMigrations, uhpPlugin } from '@arbiter/harness-server';
import { openDatabase } from '@arbiter/storage';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectSchema } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

let server: UhpTestServer;
beforeAll(async () => {
  server = await startUhpTestServer();
});
afterAll(() => server.close());

describe('discovery and version negotiation', () => {
  it('serves the discovery document without a credential, class full with all nine capabilities', async () => {
    const result = await call(server.baseUrl, '/v1/uhp');
    expect(result.status).toBe(200);
    expectSchema(result.json, 'Discovery');
    expect(result.json.conformance_class).toBe('full');
    expect(result.json.versions).toContain(result.json.default_version);
    expect(Object.keys(result.json.capabilities).sort()).toEqual(
      [
        'cancellation',
        'files_input',
        'files_output',
        'harness_management',
        'idempotency',
        'session_listing',
        'session_sharing',
        'sessions',
        'streaming',
      ].sort(),
    );
    expect(Object.values(result.json.capabilities).every((value) => value === true)).toBe(true);
  });

  it('holds nothing principal-specific: every caller gets the same bytes', async () => {
    const anonymous = await call(server.baseUrl, '/v1/uhp');
    const alice = await call(server.baseUrl, '/v1/uhp', { key: TEST_KEYS.alice });
    expect(alice.text).toBe(anonymous.text);
  });

  it('honours a supported version and refuses an unsupported one with the supported list', async () => {
    const supported = await call(server.baseUrl, '/v1/uhp', { headers: { 'UHP-Version': '2026-08-11' } });
    expect(supported.status).toBe(200);
    const unsupported = await call(server.baseUrl, '/v1/harnesses', {
      key: TEST_KEYS.alice,
      headers: { 'UHP-Version': '1999-01-01' },
    });
    expect(unsupported.status).toBe(400);
    expect(unsupported.json.error.code).toBe('unsupported_protocol_version');
    expect(unsupported.json.error.detail.supported).toEqual(['2026-08-11']);
  });
});

describe('authentication', () => {
  it('answers 401 missing_credential without a token and invalid_credential for an unknown one', async () => {
    const missing = await call(server.baseUrl, '/v1/harnesses');
    expect(missing.status).toBe(401);
    expect(missing.json.error).toMatchObject({ type: 'authentication_error', code: 'missing_credential' });
    const invalid = await call(server.baseUrl, '/v1/harnesses', { key: 'not-a-key' });
    expect(invalid.status).toBe(401);
    expect(invalid.json.error).toMatchObject({ type: 'authentication_error', code: 'invalid_credential' });
    expect(invalid.text).not.toContain('not-a-key');
  });

  it('uses the app’s authentication, and refuses to start without it rather than serve unauthenticated', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-uhp-noauthplugin-'));
    const db = openDatabase(dataDir, uhpMigrations);
    const app = Fastify({ logger: false });
    try {
      app.register(uhpPlugin, { prefix: '/api/harness', db, dataDir });
      await expect(app.ready()).rejects.toThrow(/'authenticator' required by 'arbiter-uhp'|arbiter-auth/);
    } finally {
      db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('serves a --no-auth server as one local principal', async () => {
    const local = await startUhpTestServer({ noAuth: true });
    try {
      const result = await call(local.baseUrl, '/v1/harnesses');
      expect(result.status).toBe(200);
      expect(result.json.harnesses).toHaveLength(1);
    } finally {
      await local.close();
    }
  });
});

describe('error envelope', () => {
  it('reports unknown objects with specific codes and no internals', async () => {
    const harness = await call(server.baseUrl, '/v1/harnesses/chrn_nosuch', { key: TEST_KEYS.alice });
    expect(harness.status).toBe(404);
    expect(harness.json.error).toMatchObject({ type: 'invalid_request_error', code: 'harness_not_found' });
    const response = await call(server.baseUrl, '/v1/responses/resp_nosuch', { key: TEST_KEYS.alice });
    expect(response.json.error.code).toBe('response_not_found');
    const route = await call(server.baseUrl, '/v1/nothing-here', { key: TEST_KEYS.alice });
    expect(route.status).toBe(404);
    for (const result of [harness, response, route]) {
      expect(result.json.error.message).not.toMatch(/ at |\/tmp|\/work|Error:/);
    }
  });

  it('turns malformed JSON and invalid fields into 400 invalid_input with the offending param', async () => {
    const malformed = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: TEST_KEYS.alice,
      raw: '{"input": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.code).toBe('invalid_input');
    const wrongType = await call(server.baseUrl, '/v1/responses', {
      method: 'POST',
      key: TEST_KEYS.alice,
      body: { input: 'x', max_step: 'many' },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.error.param).toBe('max_step');
  });
});
