import { containsRedactionMarker } from './redaction-marker.js';

const reference =
  /^(?:\$|%\(|\{\{|<[^>]*>$|process\.env|os\.environ|env\(|getenv|secrets\.|vault:|\*+$|x+$|\.\.\.$|changeme$|redacted$)/i;
const literalKeyword = /^(?:true|false|null|nil|none|undefined|yes|no|on|off|required|optional)$/i;
const memberAccess = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/**
 * Whether the value assigned to a secret-named field is worth redacting: not empty, not a reference to
 * where the secret lives (`$DB_PASSWORD`, `${{ secrets.X }}`, `process.env.X`), not a placeholder or keyword.
 */
export function isRedactableValue(value: string, name: string): boolean {
  const trimmed = value.trim();
  if (trimmed.length === 0 || containsRedactionMarker(trimmed)) return false;
  if (reference.test(trimmed) || literalKeyword.test(trimmed)) return false;
  // i18n tables and form labels: `password: "Password"`.
  return normaliseWords(trimmed) !== normaliseWords(name);
}

/**
 * Stricter test for unquoted values after `name:` or `name =`, where code has type annotations
 * (`token: string`) and expressions (`secret = config.secret`) that must stay as written: the value has to
 * contain a digit or a symbol, as generated credentials do.
 */
export function isRedactableBareValue(value: string, name: string): boolean {
  if (!isRedactableValue(value, name) || memberAccess.test(value)) return false;
  return /[0-9]/.test(value) || /[^A-Za-z0-9_]/.test(value);
}

function normaliseWords(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}
