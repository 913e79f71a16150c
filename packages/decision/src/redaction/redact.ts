import type { State } from '../wire/request.js';
import { redactPrivateKeyBlocks } from './private-key-block.js';
import { containsRedactionMarker, redactionMarker } from './redaction-marker.js';
import { isSecretName } from './secret-name.js';
import { SECRET_RULES } from './secret-rules.js';

/**
 * Replaces the secrets found in `text` with markers such as `[REDACTED:github-token]`; everything else
 * stays byte-identical. Pattern-based: it catches known shapes and secret-named assignments, not
 * novel formats or secrets in prose (see docs/client.md). Idempotent: `redact(redact(x)) === redact(x)`.
 */
export function redact(text: string): string {
  let result = redactPrivateKeyBlocks(text);
  for (const rule of SECRET_RULES) {
    if (rule.trigger !== undefined && !rule.trigger.test(result)) continue;
    rule.pattern.lastIndex = 0;
    result = result.replace(rule.pattern, rule.replace);
  }
  return result;
}

/**
 * Redacts a JSON state: every string is passed through `redact`, and values under secret-named keys
 * (`password`, `api_key`, `GITHUB_TOKEN`, …) are replaced whole, including everything nested below them.
 * Returns a copy; the input is not modified. Throws a TypeError on a circular structure, which JSON
 * could not carry anyway.
 */
export function redactState<S extends State>(state: S): S {
  return redactValue(state, false, new Set()) as S;
}

const secretFieldMarker = redactionMarker('secret-field');

function redactValue(value: unknown, underSecretName: boolean, ancestors: Set<object>): unknown {
  if (typeof value === 'string') {
    if (underSecretName && value.length > 0 && !containsRedactionMarker(value)) return secretFieldMarker;
    return redact(value);
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    return underSecretName ? secretFieldMarker : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return redactValue((value as { toJSON: () => unknown }).toJSON(), underSecretName, ancestors);
  }
  if (ancestors.has(value)) throw new TypeError('the state contains a circular reference');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactValue(item, underSecretName, ancestors));
    const copy: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      copy[key] = redactValue(member, underSecretName || isSecretName(key), ancestors);
    }
    return copy;
  } finally {
    ancestors.delete(value);
  }
}
