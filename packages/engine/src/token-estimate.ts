import type { Question, State } from '@arbiter/decision';
import { jsonByteLength } from './json-byte-length.js';

/**
 * Bytes of UTF-8 per token assumed by the estimate. Real BPE vocabularies average about four
 * bytes of English per token; three over-counts on purpose, so a request that passes the
 * context check here also fits a real tokenizer's count.
 */
export const ESTIMATED_BYTES_PER_TOKEN = 3;

/**
 * A documented, conservative token count: `ceil(UTF-8 bytes / 3)` of the text, or of the
 * compact JSON of an object or array. Used for usage reports and the context limit.
 */
export function estimateTokens(value: unknown): number {
  const bytes = typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : jsonByteLength(value);
  return Math.ceil(bytes / ESTIMATED_BYTES_PER_TOKEN);
}

/**
 * The tokens the context limit is checked against: the state plus the longest single question,
 * because engines read the state once per question, never all questions at once.
 */
export function estimateContextTokens(state: State, questions: Readonly<Record<string, Question>>): number {
  let longestQuestion = 0;
  for (const question of Object.values(questions)) {
    longestQuestion = Math.max(longestQuestion, estimateTokens(question));
  }
  return estimateTokens(state) + longestQuestion;
}
