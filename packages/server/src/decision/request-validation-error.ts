import { DECISION_LIMITS, type DecisionErrorCode } from '@arbiter/decision';
import type { z } from 'zod';
import { ApiError } from '../errors/api-error.js';
import { formatIssuePath } from './issue-path.js';

/** Most issues listed in `error.detail.issues`; the message names the first. */
const MAX_LISTED_ISSUES = 20;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The members each object of a request may have, for the message that refuses another one. */
function knownMembersAt(path: readonly PropertyKey[], body: unknown): string {
  if (path.length === 0) return 'a request has model, state (or document), questions and pack';
  if (path.length === 2 && path[0] === 'questions') {
    const type = (valueAt(body, path) as { type?: unknown } | undefined)?.type;
    const kind = typeof type === 'string' ? `${type} ` : '';
    return `a ${kind}question has only type, instructions and criteria`;
  }
  if (path.length === 3 && path[2] === 'criteria') return 'noul criteria have only true and false';
  if (path.length === 1 && path[0] === 'pack') return 'a pack has name, version and sha256';
  return 'this object has no such member';
}

/** Where an issue points: an unknown member's own path, so `param` names the misspelt member. */
function issuePath(issue: z.core.$ZodIssue): PropertyKey[] {
  if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined)
    return [...issue.path, issue.keys[0]];
  return [...issue.path];
}

function readableMessage(issue: z.core.$ZodIssue, body: unknown): string {
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.map((key) => JSON.stringify(key)).join(', ');
    const noun = issue.keys.length === 1 ? 'member' : 'members';
    return `unknown ${noun} ${names}; ${knownMembersAt(issue.path, body)} (unknown members are refused so that a misspelling cannot silently change an evaluation)`;
  }
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator === 'type') {
    const value = valueAt(body, issue.path);
    const expected = 'noul, choice or score';
    return value === undefined
      ? `missing question type; expected ${expected}`
      : `unknown question type ${JSON.stringify(value)}; expected ${expected}`;
  }
  if (issue.code === 'invalid_union') return 'expected a string, an object or an array';
  // A refused record key (an empty question id or option name, one over its length): zod reports
  // "Invalid key in record" and keeps the rule's own message in the nested issue.
  if (issue.code === 'invalid_key') return issue.issues[0]?.message ?? issue.message;
  return issue.message;
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body;
  for (const segment of path) {
    if (!isRecord(value) && !Array.isArray(value)) return undefined;
    value = Object.hasOwn(value, segment) ? (value as Record<PropertyKey, unknown>)[segment] : undefined;
  }
  return value;
}

function codeOf(issue: z.core.$ZodIssue, body: unknown): DecisionErrorCode {
  const [root, questionId, member] = issue.path;
  if (root !== 'questions') return 'invalid_request';
  if (questionId === undefined) {
    const questions = valueAt(body, ['questions']);
    return isRecord(questions) && Object.keys(questions).length === 0 ? 'empty_questions' : 'invalid_request';
  }
  const question = valueAt(body, ['questions', questionId]);
  if (member === 'criteria' && issue.path.length === 3 && isRecord(question)) {
    const criteria = question.criteria;
    if (
      question.type === 'choice' &&
      isRecord(criteria) &&
      Object.keys(criteria).length > DECISION_LIMITS.maxChoiceOptions
    ) {
      return 'too_many_options';
    }
    if (question.type === 'score' && (issue.code === 'too_small' || issue.code === 'too_big')) {
      return 'invalid_levels';
    }
  }
  return 'invalid_question';
}

/**
 * A request body that failed the wire schema, as one API error: a machine-readable code for the
 * first issue (`too_many_options`, `invalid_levels`, `empty_questions`, `invalid_question`,
 * `invalid_request`), a message naming the offending question and field, and every issue in
 * `detail.issues`.
 */
export function requestValidationError(issues: readonly z.core.$ZodIssue[], body: unknown): ApiError {
  const first = issues[0];
  const describe = (issue: z.core.$ZodIssue) => {
    const param = formatIssuePath(issuePath(issue));
    const message = readableMessage(issue, body);
    return { param, message: param ? `${param}: ${message}` : `request body: ${message}` };
  };
  const head = first ? describe(first) : { param: '', message: 'request body: invalid request' };
  return ApiError.of(first ? codeOf(first, body) : 'invalid_request', head.message, {
    param: head.param || null,
    detail: { issues: issues.slice(0, MAX_LISTED_ISSUES).map(describe) },
  });
}
