import type { Finding } from '../finding.js';
import { RISK } from '../risk-scale.js';

/**
 * Issue 27, "changes judged by their consequence": a record created or updated from the whole
 * request input takes every field a caller sends, the ones no form shows included (`role`,
 * `is_admin`, `owner_id`, `balance`). Naming the fields, or a framework's permitted list, is what
 * keeps a caller to the fields meant for them; an edit that replaces it with the whole input
 * (`User.create(req.body)`, `params.permit!`, `$request->all()`) lets a caller set anything. A
 * local name (`body`, `data`) counts as the whole input when the code it replaces picked fields
 * out of it (`{ name: body.name }` → `body`).
 */
const REQUEST_INPUT =
  /^(?:req|request|ctx\.request|ctx|c)\s*\.\s*(?:body|data|json|form|params|query|POST|payload)$|^\$request->(?:all|input)\(\s*\)$|^\$_(?:POST|REQUEST)$|^(?:req|request)\.get_json\(\s*\)$/;
const LOCAL_INPUT = /^(body|payload|input|data|params|attrs|attributes|fields|values|dto|form)$/;

/** Calls that write a record from what they are given (not a hash's `update`), and model constructors (`User(**request.json)`). */
const PERSISTING_CALL =
  /(?<!(?:hash|hmac|digest|sha\w*|md5|cipher|decipher|signer|verifier|crc\w*|hasher|h|m)\s*\.\s*)\b(?:create|insert|insertOne|insert_one|update|updateOne|update_one|findOneAndUpdate|findByIdAndUpdate|upsert|save|assign_attributes|update_attributes|update_columns|fill|forceFill|Object\.assign)\s*\(|\b(?:new\s+)?[A-Z][a-z]\w*\s*\(/g;

function topLevelArguments(text: string, start: number): string[] {
  let depth = 1;
  let end = start;
  const parts: string[] = [];
  let from = start;
  while (end < text.length && depth > 0 && end - start < 400) {
    const character = text[end]!;
    if (character === '(' || character === '{' || character === '[') depth++;
    else if (character === ')' || character === '}' || character === ']') depth--;
    else if (character === ',' && depth === 1) {
      parts.push(text.slice(from, end).trim());
      from = end + 1;
    }
    end++;
  }
  parts.push(text.slice(from, end - 1).trim());
  return parts;
}

/** How many persisting calls take a whole input; `fieldsPicked` are the local names picked from before. */
/** The request input spread into a record or given as its data (`...req.body`, `**request.data`, `data: req.body`). */
const SPREAD_INPUT =
  /(?:\.\.\.|\*\*|\bdata\s*:\s*)(?:req|request|ctx\.request|ctx)\s*\.\s*(?:body|data|json|form|params|query|POST|payload|args|get_json\(\s*\))(?!\s*[.[\w])|^\*\*\s*(?:body|payload|data|params)$/;

function wholeInputWrites(text: string, fieldsPicked: ReadonlySet<string>): number {
  let found = [...text.matchAll(/\bpermit!|\$request->all\(\s*\)/g)].length;
  for (const call of text.matchAll(PERSISTING_CALL)) {
    const argumentsOfCall = topLevelArguments(text, call.index! + call[0].length);
    const whole = (argument: string) =>
      REQUEST_INPUT.test(argument) ||
      SPREAD_INPUT.test(argument) ||
      (LOCAL_INPUT.test(argument) && fieldsPicked.has(argument));
    if (argumentsOfCall.some(whole)) found++;
  }
  return found;
}

export function judgeMassAssignment(inserted: string, removed: string): Finding[] {
  const picked = new Set(
    [
      ...removed.matchAll(
        /\b(body|payload|input|data|params|attrs|attributes|fields|values|dto|form)\s*(?:\.\s*\w+|\[\s*["'])/g,
      ),
    ].map((m) => m[1]!),
  );
  if (wholeInputWrites(inserted, picked) <= wholeInputWrites(removed, picked)) return [];
  return [{ code: 'content.persists-whole-input', deny: RISK.askHigh, onTask: 0.3 }];
}
