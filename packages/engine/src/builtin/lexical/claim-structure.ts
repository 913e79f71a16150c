import { wordsOf } from './semantic-text.js';
import { STOP_WORDS } from './stop-words.js';

/**
 * The logical form of a claim: conjunctions, disjunctions and negations of simple claims. The
 * engine answers each simple claim and derives the compound (and: the product, or: one minus the
 * product of the complements, not: the complement), so the answers about one fact agree: "A and
 * B" is never above A, "A or B" never below it, P(A) + P(B) = P(A or B) + P(A and B) exactly
 * (inclusion-exclusion, the parts taken as independent), and "not (A and B)" is one minus "A and
 * B". Evaluated whole, as words, "A and B" and "A or B" got the same answer.
 *
 * Only a connective between two parts that each hold a content word splits a claim, and never one
 * inside parentheses ("(A or B) and C"). A phrase joined by "and" ("rock and roll") is split too,
 * a limit of reading without a parser: its parts are weak topical claims, so the product stays
 * near the prior rather than becoming a confident answer.
 */
export type ClaimForm =
  | { readonly kind: 'atom'; readonly text: string }
  | { readonly kind: 'not'; readonly claim: ClaimForm }
  | { readonly kind: 'and' | 'or'; readonly parts: readonly ClaimForm[] };

const WHOLE_NEGATION = [
  /^(?:it\s+is\s+)?not\s*\(([\s\S]*)\)$/i,
  /^it\s+is\s+not\s+the\s+case\s+that\s+([\s\S]+)$/i,
];

export function claimFormOf(claim: string): ClaimForm {
  const text = claim
    .trim()
    .replace(/[?.!]+$/, '')
    .trim();
  for (const pattern of WHOLE_NEGATION) {
    const match = pattern.exec(text);
    if (match) return { kind: 'not', claim: claimFormOf(match[1]!) };
  }
  for (const kind of ['or', 'and'] as const) {
    const parts = splitAtTopLevel(text, kind);
    if (parts.length > 1 && parts.every(hasContentWord)) {
      return { kind, parts: parts.map(claimFormOf) };
    }
  }
  if (text.startsWith('(') && text.endsWith(')') && balanced(text.slice(1, -1))) {
    return claimFormOf(text.slice(1, -1));
  }
  return { kind: 'atom', text: claim };
}

/** The parts of `text` between occurrences of the connective outside parentheses. */
function splitAtTopLevel(text: string, connective: 'and' | 'or'): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  const pattern = new RegExp(`\\s+${connective}\\s+`, 'giy');
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (character === '(') depth++;
    else if (character === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && /\s/.test(character!)) {
      pattern.lastIndex = index;
      const match = pattern.exec(text);
      if (match) {
        parts.push(text.slice(start, index));
        start = index + match[0].length;
        index = start - 1;
      }
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim());
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const character of text) {
    if (character === '(') depth++;
    else if (character === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

function hasContentWord(text: string): boolean {
  return wordsOf(text).some((word) => word.length > 2 && !STOP_WORDS.has(word));
}
