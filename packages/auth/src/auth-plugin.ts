import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { AuthenticationResult, Authenticator } from './authenticator.js';
import type { KeyRole } from './key-role.js';
import type { Principal } from './principal.js';

declare module 'fastify' {
  interface FastifyInstance {
    readonly authenticator: Authenticator;
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
 * An `onRequest` hook for a route family that needs a principal: authenticates, and renders a
 * failure with the family's own renderer.
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
    if (result.ok) done();
    else renderFailure(result, request, reply);
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
