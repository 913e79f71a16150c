import { createHash, randomBytes } from 'node:crypto';

/** Every Arbiter API key starts with this, so secret scanners and `arbiter redact` recognise it. */
export const API_KEY_PREFIX = 'arb_';

/** A new key: the prefix and 256 random bits in base64url (43 characters). */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * The stored form of a key. A plain SHA-256 is enough (no slow KDF): keys are 256-bit random
 * values, not passwords, so there is nothing to brute-force from the hash.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Last four characters, shown in `arbiter keys list` so an operator can tell keys apart. */
export function apiKeyHint(key: string): string {
  return key.slice(-4);
}
