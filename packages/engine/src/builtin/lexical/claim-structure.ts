import { wordsOf } from './semantic-text.js';
import { STOP_WORDS } from './stop-words.js';
import { severityRankOf } from './urgency.js';

/**
 * The logical form of a claim: conjunctions, disjunctions and negations of simple claims. The
 * engine answers each simple claim and derives the compound (and: the product, or: one minus the
 * product of the complements, not: the complement), so the answers about one fact agree: "A and
 * B" is never above A, "A or B" never below it, P(A) + P(B) = P(A or B) + P(A and B) exactly
 * (inclusion-exclusion, the parts taken as independent), and "not (A and B)" is one minus "A and
 * B". Evaluated whole, as words, "A and B" and "A or B" got the same answer.
 *
 * Only a connective between two parts that each hold a content word splits a claim, and never one
 * inside parentheses ("(A or B) and C"). In a yes/no question, a part that is no question of its
 * own is a phrase coordinated with the one before (`coordinatedClaims`). In a statement, a phrase
 * joined by "and" ("rock and roll") is still split, a limit of reading without a parser: its parts
 * are weak topical claims, so the product stays near the prior rather than becoming a confident
 * answer.
 */
export type ClaimForm =
  | { readonly kind: 'atom'; readonly text: string }
  | {
      /** "Is the severity major or higher?": the level named or any above it (`at-most`: below). */
      readonly kind: 'at-least' | 'at-most';
      /** The rank the claim names on `SEVERITY_SCALE`. */
      readonly rank: number;
      readonly text: string;
    }
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
  const cumulative = cumulativeFormOf(text);
  if (cumulative) return { ...cumulative, text: claim };
  const question = QUESTION_START.test(text);
  for (const kind of ['or', 'and'] as const) {
    let parts = splitAtTopLevel(text, kind);
    if (parts.length < 2 || !parts.every(hasContentWord)) continue;
    if (question) parts = coordinatedClaims(parts, kind);
    if (parts.length > 1) return { kind, parts: parts.map(claimFormOf) };
  }
  if (text.startsWith('(') && text.endsWith(')') && balanced(text.slice(1, -1))) {
    return claimFormOf(text.slice(1, -1));
  }
  return { kind: 'atom', text: claim };
}

const AT_LEAST =
  /^(?:(?<stem>.*\S)\s+)?(?:at\s+least\s+(?<least>[a-z]+)|(?<level>[a-z]+)\s+or\s+(?<way>higher|above|more|greater|worse|more\s+severe|lower|below|less|better|less\s+severe))$/i;
const DOWNWARDS = /^(?:lower|below|less|better|less\s+severe)$/i;

/**
 * A claim about a cumulative level of severity: "Is the severity major or higher?", "Is it at
 * least high?" (`at-least`), "Is it minor or lower?" (`at-most`), where the level is a word that
 * ranks on the scale of severity. Read as "A or B" the comparative was a claim of its own
 * ("higher"), and "level k or higher" got the same answer for every k; it is derived from the
 * distribution over the scale's levels instead, so it falls as k rises and agrees with the Score.
 */
function cumulativeFormOf(text: string): { kind: 'at-least' | 'at-most'; rank: number } | undefined {
  const groups = AT_LEAST.exec(text)?.groups;
  const level = groups?.least ?? groups?.level;
  if (level === undefined) return undefined;
  const rank = severityRankOf(level);
  if (rank === undefined) return undefined;
  return { kind: groups?.way !== undefined && DOWNWARDS.test(groups.way) ? 'at-most' : 'at-least', rank };
}

/** A claim asked as a yes/no question: it opens with a verb ("Is it…", "Does this…", "Can they…"). */
const QUESTION_START =
  /^(?:is|are|was|were|am|do|does|did|can|could|will|would|should|shall|may|might|must|has|have|had)\b/i;
const DETERMINERS: ReadonlySet<string> = new Set(['a', 'an', 'the']);

/**
 * The claims a yes/no question's parts make. A part that is a question of its own ("…, or are
 * customers asking for refunds?") is a claim; one that is not continues the question before it,
 * as a phrase coordinated with that question's last phrase ("Is the meeting on Tuesday or
 * Friday?", "Does this question ask for description and abstract concept?"). Read alone, such a
 * part lost the question's stem: "Friday" was judged as a claim of its own, and "abstract concept"
 * made a label of two words a conjunction of two claims, 0.88 sure that a TREC question does not
 * ask for "description and abstract concept" when it did half the time (issue 28).
 *
 * - "or" between phrases asks whether the stem holds of either: "Is the meeting on Tuesday or
 *   Friday?" is "Is the meeting on Tuesday?" or "Is the meeting on Friday?".
 * - "and" between phrases names one thing more often than two claims ("black and white", "rock and
 *   roll", a label named by two words), so the phrase stays whole and the question is one claim.
 */
function coordinatedClaims(parts: readonly string[], kind: 'and' | 'or'): string[] {
  const claims: string[] = [parts[0]!];
  for (const part of parts.slice(1)) {
    if (QUESTION_START.test(part)) {
      claims.push(part);
      continue;
    }
    const last = claims.length - 1;
    const distributed = kind === 'or' ? withLastPhrase(claims[last]!, part) : undefined;
    if (distributed === undefined) claims[last] = `${claims[last]} ${kind} ${part}`;
    else claims.push(distributed);
  }
  return claims;
}

/**
 * `question` with its last phrase replaced by `phrase`: the run of content words that ends it, at
 * most as many as `phrase` holds after its article ("Is a tomato a fruit" and "a vegetable" give
 * "Is a tomato a vegetable"). Undefined when the question ends in a function word.
 */
function withLastPhrase(question: string, phrase: string): string | undefined {
  const tokens = question.split(/\s+/);
  const replacement = phrase.split(/\s+/);
  while (replacement.length > 1 && DETERMINERS.has(replacement[0]!.toLowerCase())) replacement.shift();
  let start = tokens.length;
  while (
    start > 1 &&
    tokens.length - start < replacement.length &&
    hasContentWord(tokens[start - 1]!) &&
    !STOP_WORDS.has(tokens[start - 1]!.toLowerCase())
  )
    start--;
  if (start === tokens.length) return undefined;
  return [...tokens.slice(0, start), ...replacement].join(' ');
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
