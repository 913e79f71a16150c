import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { authPlugin, requirePrincipal } from './auth-plugin.js';
import type { Authenticator } from './authenticator.js';
import type { KeyRole } from './key-role.js';

/** One key per role: the bearer token is the role's name. */
const authenticator: Authenticator = {
  mode: 'api-key',
  authenticate(authorization) {
    const role = authorization?.replace(/^Bearer /, '') as KeyRole | undefined;
    return role === 'operator' || role === 'member' || role === 'reporter'
      ? { ok: true, principal: { id: `prn_${role}`, name: role }, role }
      : { ok: false, code: 'invalid_credential', message: 'unknown key' };
  },
};

async function app() {
  const server = Fastify();
  await server.register(authPlugin, { authenticator });
  await server.register(async (scope) => {
    scope.addHook(
      'onRequest',
      requirePrincipal((failure, _request, reply) => reply.code(401).send({ code: failure.code })),
    );
    scope.get('/default', async (request) => ({ role: request.role }));
    scope.get('/reporting', { config: { roles: ['reporter', 'member'] } }, async (request) => ({
      role: request.role,
    }));
    scope.get('/operators', { config: { roles: ['operator'] } }, async (request) => ({ role: request.role }));
  });
  return server;
}

const status = async (route: string, role: string) => {
  const server = await app();
  const answer = await server.inject({ url: route, headers: { authorization: `Bearer ${role}` } });
  await server.close();
  return { status: answer.statusCode, body: answer.json() };
};

describe('requirePrincipal', () => {
  it('admits operator and member keys on a route that names no roles, and refuses reporter keys', async () => {
    expect((await status('/default', 'operator')).status).toBe(200);
    expect((await status('/default', 'member')).body).toEqual({ role: 'member' });
    const refused = await status('/default', 'reporter');
    expect(refused).toEqual({
      status: 403,
      body: {
        error: {
          type: 'permission_error',
          code: 'insufficient_scope',
          message:
            'this route admits operator and member keys; the key you sent is a reporter key, which may call only POST /v1/gate/reports (send gate verdict records) and GET /v1/gate/policy (read the team policy)',
          param: null,
          detail: { role: 'reporter', allowed_roles: ['operator', 'member'] },
        },
      },
    });
  });

  it('admits exactly the roles a route names', async () => {
    expect((await status('/reporting', 'reporter')).status).toBe(200);
    expect((await status('/reporting', 'member')).status).toBe(200);
    expect((await status('/reporting', 'operator')).status).toBe(403);
    expect((await status('/operators', 'operator')).status).toBe(200);
    const member = await status('/operators', 'member');
    expect(member.status).toBe(403);
    expect(member.body.error.message).toBe(
      'this route admits operator keys; the key you sent is a member key, which may call every route as its own principal, except the administration routes',
    );
  });

  it("renders a refused credential with the family's renderer, before any role is read", async () => {
    expect(await status('/operators', 'nobody')).toEqual({
      status: 401,
      body: { code: 'invalid_credential' },
    });
  });
});
