import type { Principal } from './principal.js';

/**
 * What a key may do. `operator` keys administer principals and keys over the API (docs/security.md);
 * `member` keys use the API as their principal and nothing more; `reporter` keys may only send a
 * gate hook's verdict records and read the team's gate policy (`POST /v1/gate/reports`,
 * `GET /v1/gate/policy`), so the key a developer's hook holds reads nobody's records, its own
 * included. The role belongs to the key, not the principal, so an operator can hold a member key
 * for everyday work and revoke either alone.
 */
export const KEY_ROLES = ['operator', 'member', 'reporter'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

/**
 * The roles a route admits when its route config names none (`config: {roles}`): a route is
 * closed to reporter keys unless it opens itself to them, so a route added later cannot leak to
 * the narrowest key by being forgotten.
 */
export const DEFAULT_ROUTE_ROLES: readonly KeyRole[] = ['operator', 'member'];

/** What each role may do, in the words a refusal uses. */
export const KEY_ROLE_ALLOWS: Readonly<Record<KeyRole, string>> = {
  operator: 'every route, the administration of principals, keys and budgets included',
  member: 'every route as its own principal, except the administration routes',
  reporter:
    'only POST /v1/gate/reports (send gate verdict records) and GET /v1/gate/policy (read the team policy)',
};

/** An accepted credential: whose it is and what it may do. */
export interface AuthenticatedKey {
  readonly principal: Principal;
  readonly role: KeyRole;
}
