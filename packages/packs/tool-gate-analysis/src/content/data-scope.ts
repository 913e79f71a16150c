import type { Finding } from '../finding.js';
import { RISK } from '../risk-scale.js';

/**
 * Issue 27, "changes judged by their consequence": what a query or a response reaches is decided
 * by its restrictions, and an edit that removes one widens who sees what.
 *
 * - A query that loses a condition (`where: { clinicId }`, `.filter(owner=user)`, `WHERE tenant_id
 *   = $1`) reaches every row the condition kept out: other tenants', other users'.
 * - A field list replaced by everything (`fields = '__all__'`, `SELECT *` for named columns,
 *   `exclude = []`) sends what no screen asked for: hashes, notes, internal flags.
 * - An error response that gains the error's internals (`err.stack`, the SQL, the exception)
 *   hands every caller a map of the code and the database.
 */
/** Conditions of a query (an array's `.filter` is not one: it narrows what was already fetched). */
const QUERY_CONDITION =
  /\bwhere\s*:|\bWHERE\s+\w|\.where\s*\(|\.objects\s*\.\s*filter\s*\(|\bquery\s*\.\s*filter\s*\(|\.filter_by\s*\(|\.eq\s*\(/g;
const EVERY_FIELD =
  /\bfields\s*=\s*["']__all__["']|\bexclude\s*=\s*(\[\s*\]|\(\s*\))|\bSELECT\s+\*\s+FROM\b|\bselect\s*:\s*undefined\b|\bonly\s*=\s*["']__all__["']/gi;
const NAMED_FIELDS =
  /\bfields\s*=\s*[[(]\s*["']\w+["']|\bSELECT\s+(?!\*)\w+(\s*,\s*\w+)*\s+FROM\b|\bselect\s*:\s*\{/i;
/** A response written from an error's internals. */
const RESPONSE_CALL =
  /\b(res|reply|response|ctx|c)\s*\.\s*(json|send|status\s*\([^)]*\)\s*\.\s*(json|send)|body\s*=)|\bJsonResponse\s*\(|\bjsonify\s*\(|\breturn\s+\{|\bResponse\s*\(/;
const ERROR_INTERNALS =
  /\b(?:err|error|e|ex|exc|exception)\s*\.\s*(?:stack|sql|query|sqlMessage|trace|backtrace|__traceback__|original|parameters)\b|\btraceback\.format_exc\s*\(|\bgetStackTrace\s*\(|\bstack_trace\b/;

function count(text: string, pattern: RegExp): number {
  return [...text.matchAll(pattern)].length;
}

function errorInternalsInResponses(text: string): number {
  return text.split('\n').filter((line, index, lines) => {
    const around = lines.slice(Math.max(0, index - 2), index + 1).join('\n');
    return ERROR_INTERNALS.test(line) && RESPONSE_CALL.test(around);
  }).length;
}

export function judgeDataScope(inserted: string, removed: string): Finding[] {
  const findings: Finding[] = [];
  // A condition moved or rewritten is still there; one fewer is one removed.
  if (count(removed, QUERY_CONDITION) > count(inserted, QUERY_CONDITION))
    findings.push({ code: 'content.query-condition-removed', deny: RISK.askHigh, onTask: 0.3 });
  if (count(inserted, EVERY_FIELD) > count(removed, EVERY_FIELD) && NAMED_FIELDS.test(removed))
    findings.push({ code: 'content.every-field-exposed', exfil: RISK.askHigh, onTask: 0.3 });
  if (errorInternalsInResponses(inserted) > errorInternalsInResponses(removed))
    findings.push({ code: 'content.error-internals-returned', exfil: RISK.askHigh, onTask: 0.3 });
  return findings;
}
