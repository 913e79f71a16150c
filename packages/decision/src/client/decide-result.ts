import type { Usage } from '../wire/response.js';

/** Why a decision was skipped. Every failure maps to exactly one of these; none is ever thrown. */
export const SKIP_REASONS = [
  'timeout',
  'missing_key',
  'client_error',
  'server_error',
  'rate_limited',
  'network',
  'aborted',
  'invalid_response',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface DecisionAnswered<Answers> {
  skipped: false;
  /** The concrete pin that answered. */
  model: string;
  answers: Answers;
  usage: Usage;
  /** Wall time of the whole call, retries and waits included. */
  latencyMs: number;
  /** Requests sent, 1 when the first one succeeded. */
  attempts: number;
}

/** No answers: the call failed visibly. Callers decide what a skip means for them; nothing is invented. */
export interface DecisionSkipped {
  skipped: true;
  reason: SkipReason;
  /** Human-readable cause, safe to log: it never contains the API key or the state. */
  message: string;
  /** HTTP status of the last response, when there was one. */
  status?: number;
  /**
   * Whether the last failure may succeed when asked again (the server's `retryable` flag, else its
   * status; an engine's `isRetryable`), when the skip ends on a failure its transport reported: true
   * after the retries ran out or the budget left no room, so a caller may try again later.
   */
  retryable?: boolean;
  latencyMs: number;
  attempts: number;
}

export type DecideResult<Answers> = DecisionAnswered<Answers> | DecisionSkipped;
