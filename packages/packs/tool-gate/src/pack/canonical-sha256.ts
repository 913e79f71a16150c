import { hash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

// canonicalize is CommonJS (`module.exports = serialize`) with ESM-style typings; under NodeNext the
// default import is the function itself at run time, so the type is corrected here once.
const canonicalize = canonicalizeModule as unknown as (value: unknown) => string | undefined;

/** sha256 (lowercase hex) of the RFC 8785 canonical JSON of a value: key order and spacing never matter. */
export function canonicalSha256(value: unknown): string {
  const canonical = canonicalize(value);
  if (canonical === undefined) throw new TypeError('value has no JSON representation');
  // The one-shot form skips the Hash object a streaming digest needs: every verdict hashes its call.
  return hash('sha256', canonical, 'hex');
}
