import { backoffDelay } from '@arbiter/http-retry';
import { type Clock, systemClock } from '../clock/clock.js';
import type { AnswersFor } from '../question/typed-answer.js';
import { redact, redactState } from '../redaction/redact.js';
import { createHttpTransport } from '../transport/http-transport.js';
import type { Question } from '../wire/question.js';
import type { DecisionRequest, PackReference, State } from '../wire/request.js';
import { findAnswerMismatch } from './answers-match-questions.js';
import { CallCancellation } from './call-cancellation.js';
import { compiledRequestSchema, compiledResponseSchema } from './compiled-wire-schemas.js';
import type { DecideResult, DecisionSkipped, SkipReason } from './decide-result.js';
import type { DecisionTransport, TransportFailure, TransportOutcome } from './decision-transport.js';
import { describeZodError } from './describe-zod-error.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';

/**
 * The system clock read on the monotonic scale: the client only measures durations (a budget, a
 * latency), and a wall-clock step must neither shorten a budget nor show in a latency.
 */
const durationClock: Clock = { ...systemClock, now: () => performance.now() };

export interface DecisionClientOptions {
  /** Where requests go. Default: the HTTP transport configured from ARBITER_BASE_URL and ARBITER_API_KEY. */
  transport?: DecisionTransport;
  /** Wall-time budget of one `decide` call, retries and waits included. Default 5000 ms. */
  budgetMs?: number;
  /** Redact secrets from the state before it leaves the caller. Default true. */
  redact?: boolean;
  /** Model asked for when a call names none. Default: the server's default. */
  model?: string;
  retry?: Partial<RetryPolicy>;
  /** Source of jitter; replaceable for deterministic tests. */
  random?: () => number;
  /** Time and timers of the budget, the backoff waits and the reported latency. Default: the system's. */
  clock?: Clock;
}

export interface DecideOptions<Questions extends Readonly<Record<string, Question>>> {
  state: State;
  questions: Questions;
  model?: string;
  /** The decision pack asking (Arbiter extension), so pack-aware engines can analyse rather than guess. */
  pack?: PackReference;
  /** Cancels the call; the result is then a skip with reason `aborted`. */
  signal?: AbortSignal;
}

export const DEFAULT_BUDGET_MS = 5_000;

/**
 * Asks typed questions about a state and never throws: `decide` resolves to the typed answers or to a
 * visible skip that names why (timeout, missing key, 4xx, 5xx, rate limit, network, abort, bad response).
 *
 * @example
 * const client = new DecisionClient();
 * const result = await client.decide({ state: ticket, questions: { severity: score('How severe?', levels) } });
 * if (!result.skipped) console.log(result.answers.severity.score);
 */
export class DecisionClient {
  readonly transport: DecisionTransport;
  readonly budgetMs: number;
  private readonly redactsState: boolean;
  private readonly defaultModel: string | undefined;
  private readonly retryPolicy: RetryPolicy;
  private readonly random: () => number;
  private readonly clock: Clock;

  constructor(options: DecisionClientOptions = {}) {
    this.transport = options.transport ?? createHttpTransport();
    this.budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
    if (!(this.budgetMs > 0 && Number.isFinite(this.budgetMs))) {
      throw new RangeError(`budgetMs must be a positive number of milliseconds, got ${options.budgetMs}`);
    }
    this.redactsState = options.redact ?? true;
    this.defaultModel = options.model;
    this.retryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.random = options.random ?? Math.random;
    this.clock = options.clock ?? durationClock;
  }

  async decide<Questions extends Readonly<Record<string, Question>>>(
    options: DecideOptions<Questions>,
  ): Promise<DecideResult<AnswersFor<Questions>>> {
    const call: CallState = {
      startedAt: this.clock.now(),
      attempts: 0,
      cancellation: new CallCancellation(),
      budgetExpired: false,
    };
    const cancelBudget = this.clock.setTimer(this.budgetMs, () => {
      call.budgetExpired = true;
      call.cancellation.abort();
    });
    const callerSignal = options.signal;
    // A plain function rather than AbortSignal.any, which costs ~100 µs per call on Node 20.
    const onCallerAbort = () => call.cancellation.abort(callerSignal?.reason);
    if (callerSignal?.aborted) onCallerAbort();
    else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      const request = this.prepareRequest(options);
      if (typeof request === 'string') return this.skip(call, { reason: 'client_error', message: request });
      return await this.sendWithRetries<AnswersFor<Questions>>(request, call);
    } catch (error) {
      // Transports report failures as values; reaching this is a bug somewhere, still not the caller's problem.
      return this.skip(call, {
        reason: 'client_error',
        message: `unexpected client failure: ${messageOf(error)}`,
      });
    } finally {
      cancelBudget();
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** The request as it would be sent (redacted and validated), or the reason it cannot be. */
  prepareRequest(
    options: Omit<DecideOptions<Readonly<Record<string, Question>>>, 'signal'>,
  ): DecisionRequest | string {
    let state: State;
    try {
      state = this.redactsState ? redactState(options.state) : options.state;
    } catch (error) {
      return `invalid state: ${messageOf(error)}`;
    }
    const model = options.model ?? this.defaultModel;
    const candidate = {
      ...(model === undefined ? {} : { model }),
      state,
      questions: options.questions,
      ...(options.pack === undefined ? {} : { pack: options.pack }),
    };
    const parsed = compiledRequestSchema().safeParse(candidate);
    return parsed.success ? parsed.data : `invalid request: ${describeZodError(parsed.error)}`;
  }

  private async sendWithRetries<Answers>(
    request: DecisionRequest,
    call: CallState,
  ): Promise<DecideResult<Answers>> {
    for (;;) {
      call.attempts += 1;
      const outcome = await raceAbort(this.transport.send(request, call.cancellation), call);
      if (call.cancellation.aborted) return this.skipForAbort(call);
      if (outcome.ok) return this.acceptResponse<Answers>(request, outcome.body, call);
      if (outcome.reason === 'aborted') return this.skipForAbort(call);
      const wait = this.waitBeforeRetry(outcome, call);
      if (typeof wait === 'string') return this.skip(call, { ...outcome, message: wait });
      if (!(await this.wait(wait, call))) return this.skipForAbort(call);
    }
  }

  /** Milliseconds to wait before the next attempt, or the final message when there is none. */
  private waitBeforeRetry(failure: TransportFailure, call: CallState): number | string {
    const message = `${this.transport.name}: ${failure.message}`;
    if (!failure.retryable) return message;
    if (call.attempts > this.retryPolicy.maxRetries)
      return `${message} (gave up after ${call.attempts} attempts)`;
    const remainingMs = this.budgetMs - (this.clock.now() - call.startedAt);
    if (failure.retryAfterMs !== undefined) {
      if (failure.retryAfterMs >= remainingMs) {
        return `${message} (Retry-After ${Math.ceil(failure.retryAfterMs / 1000)} s does not fit in the remaining budget of ${Math.max(0, Math.round(remainingMs))} ms)`;
      }
      return failure.retryAfterMs;
    }
    const delay = backoffDelay(this.retryPolicy, call.attempts, this.random);
    return delay >= remainingMs ? `${message} (no budget left for another attempt)` : delay;
  }

  private acceptResponse<Answers>(
    request: DecisionRequest,
    body: unknown,
    call: CallState,
  ): DecideResult<Answers> {
    const parsed = compiledResponseSchema().safeParse(body);
    if (!parsed.success) {
      return this.skip(call, {
        reason: 'invalid_response',
        message: `${this.transport.name}: the response does not match the Decision API schema: ${describeZodError(parsed.error)}`,
      });
    }
    const mismatch = findAnswerMismatch(request.questions, parsed.data.answers);
    if (mismatch !== undefined) {
      return this.skip(call, { reason: 'invalid_response', message: `${this.transport.name}: ${mismatch}` });
    }
    return {
      skipped: false,
      model: parsed.data.model,
      answers: parsed.data.answers as Answers,
      usage: parsed.data.usage,
      latencyMs: this.clock.now() - call.startedAt,
      attempts: call.attempts,
    };
  }

  /** Waits `ms` on the clock; false when the call stopped (budget or caller) first. */
  private wait(ms: number, call: CallState): Promise<boolean> {
    if (call.cancellation.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const cancel = this.clock.setTimer(ms, () => resolve(true));
      void call.cancellation.stopped.then(() => {
        cancel();
        resolve(false);
      });
    });
  }

  private skipForAbort(call: CallState): DecisionSkipped {
    return call.budgetExpired
      ? this.skip(call, { reason: 'timeout', message: `no answer within the budget of ${this.budgetMs} ms` })
      : this.skip(call, { reason: 'aborted', message: 'the caller aborted the decision' });
  }

  private skip(
    call: CallState,
    failure: { reason: SkipReason; message: string; status?: number | undefined; retryable?: boolean },
  ): DecisionSkipped {
    return {
      skipped: true,
      reason: failure.reason,
      // Server messages may quote what they were sent; the key never is, but the state could be.
      message: redact(failure.message),
      ...(failure.status === undefined ? {} : { status: failure.status }),
      ...(failure.retryable === undefined ? {} : { retryable: failure.retryable }),
      latencyMs: this.clock.now() - call.startedAt,
      attempts: call.attempts,
    };
  }
}

interface CallState {
  startedAt: number;
  attempts: number;
  cancellation: CallCancellation;
  /** Whether the abort came from the budget rather than the caller. */
  budgetExpired: boolean;
}

/**
 * Settles with the transport's outcome or as soon as the call stops (budget or caller), whichever is
 * first: a transport that ignores its signal cannot overrun the budget.
 */
function raceAbort(outcome: Promise<TransportOutcome>, call: CallState): Promise<TransportOutcome> {
  if (call.cancellation.aborted) return Promise.resolve(abortedOutcome);
  const settled = outcome.catch(
    (error: unknown): TransportOutcome => ({
      ok: false,
      reason: 'client_error',
      retryable: false,
      message: `transport failed: ${messageOf(error)}`,
    }),
  );
  return Promise.race([settled, call.cancellation.stopped.then(() => abortedOutcome)]);
}

const abortedOutcome: TransportOutcome = {
  ok: false,
  reason: 'aborted',
  retryable: false,
  message: 'aborted',
};

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
