import { randomBytes } from 'node:crypto';

/** Prefixes of every object id (the specification's `resp_`, `chrn_`, … plus Arbiter's own). */
export type ObjectIdPrefix =
  | 'resp'
  | 'chrn'
  | 'hsess'
  | 'cntr'
  | 'file'
  | 'msg'
  | 'rs'
  | 'fc'
  | 'fco'
  | 'shr';

/** 128 random bits, lower-case base32-ish hex: safe in URLs, paths and SQL without escaping. */
export function newObjectId(prefix: ObjectIdPrefix): string {
  return `${prefix}_${randomBytes(16).toString('hex')}`;
}

/** Ids are only ever our own format, so anything else (`../`, `%2f`, …) is refused before lookup. */
export function isObjectId(value: string, prefix: ObjectIdPrefix): boolean {
  return new RegExp(`^${prefix}_[0-9a-f]{32}$`).test(value);
}
