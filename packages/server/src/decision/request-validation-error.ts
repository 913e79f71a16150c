import { DECISION_LIMITS, type DecisionErrorCode } from '@arbiter/decision';
import type { z } from 'zod';
import { ApiError } from '../errors/api-error.js';
import { formatIssuePath } from './issue-path.js';

/** Most issues listed in `error.detail.issues`; the message names the first. */
const MAX_LISTED_ISSUES = 20;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readableMessage(issue: z.core.$ZodIssue, body: unknown): string {
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator === 'type') {
    const value = valueAt(body, issue.path);
    const expected = 'noul, choice or score';
    return value === undefined
      ? `missing question type; expected ${expected}`
      : `unknown question type ${JSON.stringify(value)}; expected ${expected}`;
  }
  if (issue.code === 'invalid_union') return 'expected a string, an object or an array';
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
    const param = formatIssuePath(issue.path);
    const message = readableMessage(issue, body);
    return { param, message: param ? `${param}: ${message}` : `request body: ${message}` };
  };
  const head = first ? describe(first) : { param: '', message: 'request body: invalid request' };
  return new ApiError({
    statusCode: 400,
    type: 'invalid_request_error',
    code: first ? codeOf(first, body) : 'invalid_request',
    message: head.message,
    param: head.param || null,
    detail: { issues: issues.slice(0, MAX_LISTED_ISSUES).map(describe) },
  });
}
