import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPostgresMigrations, openDatabase, PostgresDatabase } from '@arbiter/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/auth/api-key.js';
import { authMigrations } from '../../src/auth/auth-migrations.js';
import type { RunningServer } from '../../src/server.js';
import { migrations } from '../../src/storage/migrations.js';
import { BACKENDS, type Backend, serversOnBackends } from '../support/servers-on-backends.js';

/**
 * The operator's key routes over real HTTP, on a real `startServer` with each storage backend: the
 * first key is the operator's, member keys are refused every admin route, the listing never carries
 * a secret, and the last operator key cannot be revoked.
 */
const servers = serversOnBackends('arbiter-admin');
beforeAll(() => servers.start());
afterAll(() => servers.stop());

async function serve(backend: Backend, options: { auth?: boolean; harness?: boolean } = {}) {
  const served = await servers.serve(backend, {
    ...(options.auth === false ? { auth: false } : {}),
    harness: options.harness ? { offlineChunkDelayMs: 0 } : false,
  });
  return served.server;
}

interface KeyBody {
  object: string;
  id: string;
  principal: { id: string; name: string };
  role: 'operator' | 'member';
  hint: string;
  created_at: string;
  revoked_at: string | null;
  key?: string;
}
interface ErrorBody {
  error: { type: string; code: string; message: string; param: string | null };
}

function client(server: RunningServer) {
  return async <T>(key: string | null, method: string, route: string, body?: unknown) => {
    const response = await fetch(`${server.url}/v1/admin${route}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as T };
  };
}

describe.each<Backend>(BACKENDS)('the operator key routes on %s', (backend) => {
  it('the first key is an operator that creates keys (shown once), lists them without secrets, and revokes them', async () => {
    const server = await serve(backend);
    const operator = server.initialKey ?? '';
    expect(operator).toMatch(/^arb_/);
    const admin = client(server);

    const created = await admin<KeyBody>(operator, 'POST', '/keys', { principal: 'alice' });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toMatchObject({ object: 'api_key', role: 'member', principal: { name: 'alice' } });
    const member = created.body.key ?? '';
    expect(member).toMatch(/^arb_[A-Za-z0-9_-]{43}$/);
    expect(created.body.hint).toBe(member.slice(-4));
    // The new key works at once, for its principal.
    expect(
      (await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${member}` } })).status,
    ).toBe(200);

    const listed = await admin<{ keys: KeyBody[] }>(operator, 'GET', '/keys');
    expect(listed.status).toBe(200);
    expect(listed.body.keys.map((entry) => [entry.role, entry.principal.name === 'alice'])).toEqual([
      ['operator', false],
      ['member', true],
    ]);
    // Never the key, nor its hash, nor any long piece of either.
    const text = JSON.stringify(listed.body);
    for (const secret of [operator, member]) {
      expect(text).not.toContain(secret.slice(4, 20));
      expect(text).not.toContain(hashApiKey(secret).slice(0, 16));
    }
    expect(listed.body.keys.every((entry) => entry.key === undefined)).toBe(true);

    const principals = await admin<{ principals: { name: string; active_keys: number }[] }>(
      operator,
      'GET',
      '/principals',
    );
    expect(principals.status).toBe(200);
    expect(principals.body.principals.find((entry) => entry.name === 'alice')?.active_keys).toBe(1);

    const revoked = await admin<KeyBody>(operator, 'POST', `/keys/${created.body.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    const refused = await fetch(`${server.url}/v1/models`, {
      headers: { authorization: `Bearer ${member}` },
    });
    expect(refused.status).toBe(401);
    // Revoking again answers the same record: the key is revoked either way.
    const again = await admin<KeyBody>(operator, 'POST', `/keys/${created.body.id}/revoke`);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    const missing = await admin<ErrorBody>(operator, 'POST', '/keys/key_0000000000000000/revoke');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });

  it('refuses a member key every admin route with 403, and no key with 401', async () => {
    const server = await serve(backend);
    const admin = client(server);
    const member = (await admin<KeyBody>(server.initialKey, 'POST', '/keys', {})).body;
    const operatorId = (await admin<{ keys: KeyBody[] }>(server.initialKey, 'GET', '/keys')).body.keys[0]?.id;
    const attempts: [string, string, unknown?][] = [
      ['GET', '/principals'],
      ['GET', '/keys'],
      ['POST', '/keys', { role: 'operator' }],
      ['POST', '/keys', {}],
      ['POST', `/keys/${operatorId}/revoke`],
      ['POST', `/keys/${member.id}/revoke`],
    ];
    for (const [method, route, body] of attempts) {
      const answer = await admin<ErrorBody>(member.key ?? '', method, route, body);
      expect(answer.status, `${method} ${route}`).toBe(403);
      expect(answer.body.error).toMatchObject({ type: 'permission_error', code: 'operator_required' });
      expect(answer.body.error.message).toContain('operator key');
      expect((await admin<ErrorBody>(null, method, route, body)).status).toBe(401);
    }
    // Nothing was created or revoked by the refused attempts.
    const keys = (await admin<{ keys: KeyBody[] }>(server.initialKey, 'GET', '/keys')).body.keys;
    expect(keys.map((entry) => [entry.role, entry.revoked_at])).toEqual([
      ['operator', null],
      ['member', null],
    ]);
  });

  it('never revokes the last operator key, and an operator may make another operator first', async () => {
    const server = await serve(backend);
    const admin = client(server);
    const first = (await admin<{ keys: KeyBody[] }>(server.initialKey, 'GET', '/keys')).body.keys[0];
    const last = await admin<ErrorBody>(server.initialKey, 'POST', `/keys/${first?.id}/revoke`);
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe('last_operator_key');
    expect(last.body.error.message).toContain('would leave nobody able to manage keys');
    expect(
      (await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${server.initialKey}` } }))
        .status,
    ).toBe(200);

    const second = (
      await admin<KeyBody>(server.initialKey, 'POST', '/keys', { principal: 'ops', role: 'operator' })
    ).body;
    expect(second.role).toBe('operator');
    // The new operator revokes the first one, and is then the last.
    expect((await admin<KeyBody>(second.key ?? '', 'POST', `/keys/${first?.id}/revoke`)).status).toBe(200);
    expect((await admin<ErrorBody>(second.key ?? '', 'GET', '/keys')).status).toBe(200);
    expect((await admin<ErrorBody>(server.initialKey, 'GET', '/keys')).status).toBe(401);
    expect((await admin<ErrorBody>(second.key ?? '', 'POST', `/keys/${second.id}/revoke`)).status).toBe(409);
  });

  it('two operators revoking each other at once leave exactly one operator key', async () => {
    const server = await serve(backend);
    const admin = client(server);
    const first = (await admin<{ keys: KeyBody[] }>(server.initialKey, 'GET', '/keys')).body.keys[0];
    const second = (await admin<KeyBody>(server.initialKey, 'POST', '/keys', { role: 'operator' })).body;
    const outcomes = await Promise.all([
      admin<KeyBody>(server.initialKey, 'POST', `/keys/${second.id}/revoke`),
      admin<KeyBody>(second.key ?? '', 'POST', `/keys/${first?.id}/revoke`),
    ]);
    // One revocation wins. The other is refused either for the rule (409) or, when the winner's
    // revocation landed before it was authenticated, because its own key is revoked by then (401).
    const statuses = outcomes.map((outcome) => outcome.status).sort();
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    const keys = (
      await admin<{ keys: KeyBody[] }>(
        outcomes[0].status === 200 ? server.initialKey : (second.key ?? ''),
        'GET',
        '/keys',
      )
    ).body.keys;
    expect(keys.filter((entry) => entry.role === 'operator' && entry.revoked_at === null)).toHaveLength(1);
  });

  it('lists keys a page at a time with limit and after, oldest first, and refuses a bad page', async () => {
    const server = await serve(backend);
    const operator = server.initialKey ?? '';
    const admin = client(server);
    for (const principal of ['p1', 'p2', 'p3', 'p4'])
      expect((await admin<KeyBody>(operator, 'POST', '/keys', { principal })).status).toBe(201);
    interface Page {
      keys: KeyBody[];
      has_more: boolean;
      next_after: string | null;
    }
    const whole = (await admin<Page>(operator, 'GET', '/keys')).body;
    expect(whole.keys).toHaveLength(5);
    expect([whole.has_more, whole.next_after]).toEqual([false, null]);
    const names: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const query: string = after === null ? '?limit=2' : `?limit=2&after=${after}`;
      const page: Page = (await admin<Page>(operator, 'GET', `/keys${query}`)).body;
      names.push(...page.keys.map((entry) => entry.principal.name));
      expect(page.has_more).toBe(page.next_after !== null);
      after = page.next_after;
      pages++;
    } while (after !== null);
    expect(pages).toBe(3);
    // Every key once, in the order of the whole listing.
    expect(names).toEqual(whole.keys.map((entry) => entry.principal.name));
    for (const [query, param] of [
      ['?limit=0', 'limit'],
      ['?limit=1001', 'limit'],
      ['?limit=two', 'limit'],
      ['?after=key_0000000000000000', 'after'],
      ['?cursor=x', null],
    ] as const) {
      const refused = await admin<ErrorBody>(operator, 'GET', `/keys${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body.error.code, query).toBe('invalid_request');
      if (param) expect(refused.body.error.message, query).toContain(param);
    }
  });

  it('refuses bad input with the field named, and creates nothing', async () => {
    const server = await serve(backend);
    const admin = client(server);
    for (const body of [{ role: 'root' }, { principal: 'has space' }, { principal: '' }, { extra: 1 }]) {
      const answer = await admin<ErrorBody>(server.initialKey, 'POST', '/keys', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
    }
    expect((await admin<{ keys: KeyBody[] }>(server.initialKey, 'GET', '/keys')).body.keys).toHaveLength(1);
  });
});

describe('the operator role elsewhere', () => {
  it('documents the admin routes in the OpenAPI document, each with the bearer security', async () => {
    const server = await serve('sqlite');
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown; tags?: string[]; responses: object }>>;
    };
    const admin = Object.entries(document.paths).filter(([route]) => route.startsWith('/v1/admin/'));
    expect(
      admin.flatMap(([route, methods]) => Object.keys(methods).map((method) => `${method} ${route}`)).sort(),
    ).toEqual([
      'get /v1/admin/budgets',
      'get /v1/admin/budgets/{principal}/ledger',
      'get /v1/admin/keys',
      'get /v1/admin/principals',
      'post /v1/admin/budgets/{principal}/credits',
      'post /v1/admin/keys',
      'post /v1/admin/keys/{id}/revoke',
    ]);
    for (const [, methods] of admin)
      for (const operation of Object.values(methods)) {
        expect(operation.security).toEqual([{ bearerAuth: [] }]);
        expect(operation.tags).toEqual(['admin']);
        expect(Object.keys(operation.responses)).toContain('403');
      }
  });

  it('under --no-auth the local principal is an operator', async () => {
    const server = await serve('sqlite', { auth: false });
    const admin = client(server);
    expect(server.initialKey).toBeNull();
    const created = await admin<KeyBody>(null, 'POST', '/keys', { principal: 'later' });
    expect(created.status).toBe(201);
    expect((await admin<{ keys: KeyBody[] }>(null, 'GET', '/keys')).body.keys).toHaveLength(1);
  });

  it('revoking over the API closes the key’s open stream within about a second', async () => {
    const server = await serve('sqlite', { harness: true });
    const admin = client(server);
    const doomed = (await admin<KeyBody>(server.initialKey, 'POST', '/keys', { principal: 'doomed' })).body;
    const headers = { authorization: `Bearer ${doomed.key}` };
    const task = (await (
      await fetch(`${server.url}/api/harness/v1/responses`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ input: '@sleep 20000', background: true }),
      })
    ).json()) as { id: string };
    const response = await fetch(`${server.url}/api/harness/v1/responses/${task.id}?stream=true`, {
      headers,
    });
    expect(response.status).toBe(200);
    const ended = (async () => {
      try {
        for await (const _chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          // Read until the server ends the stream.
        }
      } catch {
        // A dropped connection ends it too.
      }
      return Date.now();
    })();
    const revokedAt = Date.now();
    expect((await admin<KeyBody>(server.initialKey, 'POST', `/keys/${doomed.id}/revoke`)).status).toBe(200);
    // The sweep runs every second; two leave room for a loaded machine.
    expect((await ended) - revokedAt).toBeLessThan(2000);
  });

  it.each<Backend>(BACKENDS)(
    'an upgraded %s database makes its oldest unrevoked key the operator and every other key a member',
    async (backend) => {
      // The schema as the first release left it: its first migration only.
      const first = authMigrations.slice(0, 1);
      const rows = `
      INSERT INTO principals (id, name, created_at) VALUES ('prn_a', 'a', 1), ('prn_b', 'b', 2);
      INSERT INTO api_keys (id, principal_id, key_hash, hint, created_at, revoked_at) VALUES
        ('key_revoked', 'prn_a', 'h1', 'aaaa', 100, 150),
        ('key_oldest', 'prn_a', 'h2', 'bbbb', 200, NULL),
        ('key_newer', 'prn_b', 'h3', 'cccc', 300, NULL);
    `;
      let roles: unknown[];
      if (backend === 'sqlite') {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-upgrade-'));
        servers.defer(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
        const before = openDatabase(dataDir, first);
        before.exec(rows);
        before.close();
        const after = openDatabase(dataDir, migrations);
        roles = after.prepare('SELECT id, role FROM api_keys ORDER BY created_at').all();
        after.close();
      } else {
        const db = new PostgresDatabase(await servers.createDatabase());
        servers.defer(() => db.close());
        await applyPostgresMigrations(db, first);
        await db.pool.query(rows);
        await applyPostgresMigrations(db, migrations);
        roles = await db.all('SELECT id, role FROM api_keys ORDER BY created_at');
      }
      expect(roles).toEqual([
        { id: 'key_revoked', role: 'member' },
        { id: 'key_oldest', role: 'operator' },
        { id: 'key_newer', role: 'member' },
      ]);
    },
  );
});
