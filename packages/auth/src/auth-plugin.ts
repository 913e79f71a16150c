import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { AuthenticationResult, Authenticator } from './authenticator.js';
import { DEFAULT_ROUTE_ROLES, KEY_ROLE_ALLOWS, type KeyRole } from './key-role.js';
import type { Principal } from './principal.js';

declare module 'fastify' {
  interface FastifyInstance {
    readonly authenticator: Authenticator;
  }
  interface FastifyContextConfig {
    /** The key roles the route admits (`requirePrincipal`); default `DEFAULT_ROUTE_ROLES`. */
    roles?: readonly KeyRole[];
  }
  interface FastifyRequest {
    /** Set by `authenticate` once the request's credential was accepted; null before. */
    principal: Principal | null;
    /** The role of the credential that set `principal` (`operator` under `--no-auth`); null before. */
    role: KeyRole | null;
  }
}

/**
 * Authenticates a request and, on success, sets `request.principal`. Route families render the
 * failure in their own error format (the Decision API and UHP have different envelopes).
 */
export function authenticate(request: FastifyRequest): AuthenticationResult {
  const result = request.server.authenticator.authenticate(request.headers.authorization);
  if (result.ok) {
    request.principal = result.principal;
    request.role = result.role;
  }
  return result;
}

/** Renders an authentication failure; called by the hook that `requirePrincipal` builds. */
export type AuthenticationFailureRenderer = (
  failure: Extract<AuthenticationResult, { ok: false }>,
  request: FastifyRequest,
  reply: FastifyReply,
) => unknown;

/**
 * A key whose role the route does not admit: 403 with a body that is at once the Decision API's
 * envelope and UHP's (`insufficient_scope` is in UHP's registry with this status and type), so
 * every route family refuses in its own shape without a renderer of its own.
 */
export function renderRoleRefusal(role: KeyRole, allowed: readonly KeyRole[], reply: FastifyReply): void {
  reply.code(403).send({
    error: {
      type: 'permission_error',
      code: 'insufficient_scope',
      message: `this route admits ${allowed.join(' and ')} keys; the key you sent is a ${role} key, which may call ${KEY_ROLE_ALLOWS[role]}`,
      param: null,
      detail: { role, allowed_roles: allowed },
    },
  });
}

/**
 * An `onRequest` hook for a route family that needs a principal: authenticates, renders a failure
 * with the family's own renderer, and refuses a key whose role the route's `config.roles` (default
 * operator and member) does not admit.
 */
export function requirePrincipal(renderFailure: AuthenticationFailureRenderer) {
  // Callback style, not async: authentication is synchronous, and an async hook costs every
  // request a promise and a microtask turn.
  return function requirePrincipalHook(
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void {
    const result = authenticate(request);
    if (!result.ok) {
      renderFailure(result, request, reply);
      return;
    }
    const allowed = request.routeOptions.config.roles ?? DEFAULT_ROUTE_ROLES;
    if (allowed.includes(result.role)) done();
    else renderRoleRefusal(result.role, allowed, reply);
  };
}

/** Makes `app.authenticator` and `request.principal` available to every plugin of the app. */
export const authPlugin = fastifyPlugin<{ authenticator: Authenticator }>(
  async (app, options) => {
    app.decorate('authenticator', options.authenticator);
    app.decorateRequest('principal', null);
    app.decorateRequest('role', null);
  },
  { name: 'arbiter-auth', fastify: '5.x' },
);
