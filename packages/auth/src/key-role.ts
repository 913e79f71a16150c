import type { Principal } from './principal.js';

/**
 * What a key may do. `operator` keys administer principals and keys over the API (docs/security.md);
 * `member` keys use the API as their principal and nothing more. The role belongs to the key, not
 * the principal, so an operator can hold a member key for everyday work and revoke either alone.
 */
export const KEY_ROLES = ['operator', 'member'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

/** An accepted credential: whose it is and what it may do. */
export interface AuthenticatedKey {
  readonly principal: Principal;
  readonly role: KeyRole;
}
