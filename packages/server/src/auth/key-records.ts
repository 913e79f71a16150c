import { randomBytes } from 'node:crypto';
import type { KeyRole, Principal } from '@arbiter/auth';
import { type SqlDialect, schemaTypes } from '@arbiter/storage';
import { apiKeyHint, generateApiKey, hashApiKey } from './api-key.js';

/**
 * What the key store (`key-store.ts`) reads and writes: the records it answers, the rows behind
 * them and every SQL text, the same in both dialects but for the insertion order a listing breaks
 * ties with and the row lock a revocation takes. How a request is authenticated synchronously and
 * a revocation reaches it differs by backend (`sqlite-active-keys.ts`, `postgres-active-keys.ts`).
 */

/** An API key as listed: never the key itself, nor its hash. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly principal: Principal;
  readonly role: KeyRole;
  /** Last four characters of the key. */
  readonly hint: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

/** A principal as listed, with how many of its keys are not revoked. */
export interface PrincipalRecord extends Principal {
  readonly createdAt: Date;
  readonly activeKeys: number;
}

/** What revoking a key did. */
export type RevokeOutcome = 'revoked' | 'already-revoked' | 'not-found';

/**
 * Revoking with `keepAnOperator` refuses (`last-operator`) to revoke the last unrevoked operator key:
 * over the API that would leave nobody able to administer keys, and the only way back would be a
 * shell on the server's machine.
 */
export interface RevokeOptions {
  readonly keepAnOperator: true;
}

export interface CreatedApiKey {
  /** The key in the clear: shown once, never stored. */
  readonly key: string;
  readonly record: ApiKeyRecord;
}

export interface KeyRow {
  id: string;
  principal_id: string;
  principal_name: string;
  role: KeyRole;
  hint: string;
  created_at: number;
  revoked_at: number | null;
}

export interface PrincipalRow {
  id: string;
  name: string;
  created_at: number;
  active_keys: number;
}

/** Every SQL text of the key store: one text per query, the dialect asked where they differ. */
export const KEY_SQL = {
  /** Every key with its principal, oldest first (the key's insertion order breaks ties). */
  listKeys: (dialect: SqlDialect) =>
    `SELECT k.id, k.principal_id, p.name AS principal_name, k.role, k.hint, k.created_at, k.revoked_at
     FROM api_keys k JOIN principals p ON p.id = k.principal_id
     ORDER BY k.created_at, k.${schemaTypes(dialect).insertionOrder}`,
  listPrincipals: `SELECT p.id, p.name, p.created_at,
       (SELECT COUNT(*) FROM api_keys k WHERE k.principal_id = p.id AND k.revoked_at IS NULL) AS active_keys
     FROM principals p ORDER BY p.created_at, p.name`,
  activeOperatorKeys: "SELECT COUNT(*) AS n FROM api_keys WHERE role = 'operator' AND revoked_at IS NULL",
  insertKey:
    'INSERT INTO api_keys (id, principal_id, key_hash, hint, created_at, role) VALUES (?, ?, ?, ?, ?, ?)',
  insertPrincipal: 'INSERT INTO principals (id, name, created_at) VALUES (?, ?, ?)',
  principalByName: 'SELECT id, name FROM principals WHERE name = ?',
  /**
   * A key's state before revoking it. PostgreSQL locks the row (`FOR UPDATE`) against a concurrent
   * revocation; SQLite does not parse that, and needs no row lock: its transaction holds the
   * database's write lock from the start.
   */
  keyState: (dialect: SqlDialect) =>
    `SELECT revoked_at, role FROM api_keys WHERE id = ?${dialect === 'postgres' ? ' FOR UPDATE' : ''}`,
  revokeKey: 'UPDATE api_keys SET revoked_at = ? WHERE id = ?',
  anyActiveKey: 'SELECT 1 AS one FROM api_keys WHERE revoked_at IS NULL LIMIT 1',
} as const;

export function keyRecordOf(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    principal: { id: row.principal_id, name: row.principal_name },
    role: row.role,
    hint: row.hint,
    createdAt: new Date(Number(row.created_at)),
    revokedAt: row.revoked_at === null ? null : new Date(Number(row.revoked_at)),
  };
}

export function principalRecordOf(row: PrincipalRow): PrincipalRecord {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(Number(row.created_at)),
    activeKeys: Number(row.active_keys),
  };
}

/** A fresh id of a key (`key_…`) or a principal (`prn_…`). */
export function newId(prefix: 'key' | 'prn'): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

/**
 * A new key for `principal`: what a store answers, and the parameters of `KEY_SQL.insertKey` that
 * record it (its hash, never the key).
 */
export function newApiKey(
  principal: Principal,
  role: KeyRole,
): {
  readonly created: CreatedApiKey;
  readonly insert: readonly [string, string, string, string, number, KeyRole];
} {
  const key = generateApiKey();
  const id = newId('key');
  const createdAt = Date.now();
  const hint = apiKeyHint(key);
  return {
    created: { key, record: { id, principal, role, hint, createdAt: new Date(createdAt), revokedAt: null } },
    insert: [id, principal.id, hashApiKey(key), hint, createdAt, role],
  };
}
