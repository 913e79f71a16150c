import type { Finding } from '../finding.js';
import { RISK } from '../risk-scale.js';

/**
 * Issue 27, "changes judged by their consequence": some values the server must decide itself,
 * because whoever sends a request would choose them in their own favour. An edit that takes one
 * from the request lets the client choose it:
 *
 * - what is charged or granted: a price, an amount, a discount, a balance, a role, an owner
 *   (`req.body.amount ?? priceOf(cart)`);
 * - who the client is: a header any client can set (`X-Forwarded-For`, `X-User-Id`) used where the
 *   server identifies, limits or authorises (`keyGenerator: req => req.headers['x-forwarded-for']`).
 */
const CLIENT_CHOSEN_VALUE =
  /\b(?:req|request|ctx\.request|params|body|input)\s*\.\s*(?:body\s*\.\s*)?(amount|price|total|subtotal|discount|cost|fee|balance|credit|credits|role|roles|is_?admin|isAdmin|is_?staff|permissions?|owner_?id|ownerId|user_?id|userId|account_?id|accountId|tenant_?id|tenantId|plan|tier|quota)\b/g;
const CLIENT_SET_HEADER =
  /["'`](x-forwarded-for|x-real-ip|x-client-ip|x-user-id|x-user|x-forwarded-user|x-remote-user|x-auth-user|x-original-forwarded-for|true-client-ip)["'`]/gi;
/** Lines that only report a value (logs) do not decide with it. */
const REPORTING_LINE = /\b(logger|logging|log|console|print|println|puts|debug|trace)\b\s*[.(]/;

function uses(text: string, pattern: RegExp): Set<string> {
  const found = new Set<string>();
  for (const line of text.split('\n')) {
    if (REPORTING_LINE.test(line)) continue;
    for (const match of line.matchAll(pattern)) found.add((match[1] ?? match[0]).toLowerCase());
  }
  return found;
}

export function judgeClientTrust(inserted: string, removed: string): Finding[] {
  const findings: Finding[] = [];
  const valuesBefore = uses(removed, CLIENT_CHOSEN_VALUE);
  const value = [...uses(inserted, CLIENT_CHOSEN_VALUE)].find((name) => !valuesBefore.has(name));
  if (value !== undefined)
    findings.push({ code: `content.client-chooses:${value}`, deny: RISK.askHigh, onTask: 0.3 });
  const headersBefore = uses(removed, CLIENT_SET_HEADER);
  const header = [...uses(inserted, CLIENT_SET_HEADER)].find((name) => !headersBefore.has(name));
  if (header !== undefined)
    findings.push({ code: `content.client-sets-identity:${header}`, deny: RISK.askHigh, onTask: 0.3 });
  return findings;
}
