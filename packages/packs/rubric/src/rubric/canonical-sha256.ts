import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

// canonicalize is CommonJS (`module.exports = serialize`) with ESM-style typings; under NodeNext the
// default import is the function itself at run time, so the type is corrected here once.
const canonicalize = canonicalizeModule as unknown as (value: unknown) => string | undefined;

/**
 * sha256 (lowercase hex) of the RFC 8785 canonical JSON of a value, so key order, spacing and the
 * file format (YAML or JSON) never change a rubric's hash. The tool-gate pack hashes the same way.
 */
export function canonicalSha256(value: unknown): string {
  const canonical = canonicalize(value);
  if (canonical === undefined) throw new TypeError('value has no JSON representation');
  return createHash('sha256').update(canonical).digest('hex');
}
