import type { AuthenticatedKey, KeyRole } from './key-role.js';
import type { Principal } from './principal.js';

export type AuthenticationFailureCode = 'missing_credential' | 'invalid_credential';

export type AuthenticationResult =
  | { readonly ok: true; readonly principal: Principal; readonly role: KeyRole }
  | { readonly ok: false; readonly code: AuthenticationFailureCode; readonly message: string };

/** Turns an `Authorization` header into the principal it stands for. */
export interface Authenticator {
  /** `api-key`: bearer keys from the key store; `none`: everyone is the local principal (`--no-auth`). */
  readonly mode: 'api-key' | 'none';
  authenticate(authorization: string | undefined): AuthenticationResult;
}

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** What checks a bearer key: the server's key stores (SQLite and PostgreSQL) both are one. */
export interface KeyVerifier {
  /** The key's principal and role, or null when the key is unknown or revoked. */
  authenticateKey(token: string): AuthenticatedKey | null;
}

/** Bearer API keys checked against the key store on every request. */
export function createKeyAuthenticator(keys: KeyVerifier): Authenticator {
  return {
    mode: 'api-key',
    authenticate(authorization) {
      if (authorization === undefined || authorization.trim() === '') {
        return {
          ok: false,
          code: 'missing_credential',
          message: 'missing API key: send the header `Authorization: Bearer <key>`',
        };
      }
      const token = BEARER.exec(authorization)?.[1];
      if (token === undefined) {
        return {
          ok: false,
          code: 'invalid_credential',
          message: 'the Authorization header must have the form `Bearer <key>`',
        };
      }
      const accepted = keys.authenticateKey(token);
      return accepted
        ? { ok: true, principal: accepted.principal, role: accepted.role }
        : { ok: false, code: 'invalid_credential', message: 'the API key is not valid (unknown or revoked)' };
    },
  };
}

/**
 * `--no-auth`: every request acts as one local principal, whatever it sends. That principal is an
 * operator: whoever reaches a loopback-only server without a key already holds the machine, data
 * directory and all, so refusing them the key routes would protect nothing.
 */
export function createNoAuthAuthenticator(principal: Principal): Authenticator {
  const result = { ok: true, principal, role: 'operator' } as const;
  return { mode: 'none', authenticate: () => result };
}
