import {
  type Answer,
  type DecisionEngine,
  EngineError,
  type EvaluateOptions,
  type EvaluateResult,
} from '@arbiter/decision';
import { buildAnswer, LLM_ENGINE_ID } from './answer-builder.js';
import { createAvailabilityProbe, type EngineAvailability } from './availability-probe.js';
import { ConcurrencyLimiter } from './concurrency-limiter.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import {
  type OpenAICompatibleEngineConfig,
  type OpenAICompatibleEngineConfigInput,
  openAICompatibleEngineConfigSchema,
} from './openai-compatible-config.js';
import { prefixMessages, sharedPrefix } from './prompt-layout.js';
import { type EngineRuntime, QuestionReader, thinkingMembers } from './question-reader.js';
import { UsageTally } from './usage-tally.js';

export interface OpenAICompatibleEngineOptions {
  /** The `fetch` used for every upstream call (tests and proxies); the global one by default. */
  fetch?: typeof globalThis.fetch;
  /** Where the key named by `apiKeyEnv` is read; `process.env` by default. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface OpenAICompatibleEngine extends DecisionEngine {
  readonly config: OpenAICompatibleEngineConfig;
  /** Cached `GET /models` probe, for `GET /v1/models`: is the upstream model served right now? */
  checkAvailability(): Promise<EngineAvailability>;
}

/**
 * A decision engine backed by any OpenAI-compatible chat-completions server (vLLM, SGLang, llama.cpp,
 * Ollama, OpenAI, gateways). Probabilities come from next-token logprobs over single-token answer labels.
 *
 * @example
 * const engine = createOpenAICompatibleEngine({
 *   kind: 'openai-compatible', baseURL: 'http://127.0.0.1:8000/v1', model: 'Qwen/Qwen3-8B',
 * });
 * const { answers } = await engine.evaluate({ state: 'Refund me now!', questions: { urgent: { type: 'noul', instructions: 'Is this urgent?' } } });
 */
export function createOpenAICompatibleEngine(
  config: OpenAICompatibleEngineConfigInput,
  options: OpenAICompatibleEngineOptions = {},
): OpenAICompatibleEngine {
  const parsed = openAICompatibleEngineConfigSchema.parse(config);
  const client = new OpenAICompatibleClient({
    baseURL: parsed.baseURL,
    apiKeyEnv: parsed.apiKeyEnv,
    maxRetries: parsed.maxRetries,
    fetch: options.fetch,
    env: options.env,
  });
  const runtime: EngineRuntime = {
    config: parsed,
    client,
    limiter: new ConcurrencyLimiter(parsed.concurrency),
    serverLacksLogprobs: false,
    labelTokenIds: new Map(),
  };

  return {
    specificationVersion: 'v1',
    engineId: LLM_ENGINE_ID,
    config: parsed,
    checkAvailability: createAvailabilityProbe(client, parsed.model),
    evaluate: (evaluateOptions) => evaluate(runtime, evaluateOptions),
  };
}

async function evaluate(runtime: EngineRuntime, options: EvaluateOptions): Promise<EvaluateResult> {
  const { config } = runtime;
  options.signal?.throwIfAborted();
  const deadlineAt = Date.now() + config.timeoutMs;
  const timeout = new AbortController();
  const timer = setTimeout(
    () =>
      timeout.abort(
        new EngineError({
          code: 'engine_timeout',
          message: `the model server did not answer within the ${config.timeoutMs} ms budget`,
        }),
      ),
    config.timeoutMs,
  );
  // One failed question fails the request; the others stop rather than spend the server's time.
  const siblingFailure = new AbortController();
  const signal = AbortSignal.any(
    [timeout.signal, siblingFailure.signal, options.signal].filter((s): s is AbortSignal => s !== undefined),
  );
  const tally = new UsageTally();
  const prefix = sharedPrefix(options.state);
  const entries = Object.entries(options.questions);

  try {
    if (config.warmup && entries.length > 1) {
      const body = { model: config.model, messages: prefixMessages(prefix), temperature: 0, max_tokens: 1 };
      const completion = await runtime.limiter.run(
        () => runtime.client.chatCompletion({ ...thinkingMembers(config), ...body }, { signal, deadlineAt }),
        signal,
      );
      tally.add(completion);
    }
    const reader = new QuestionReader(runtime, { prefix, signal, deadlineAt, tally });
    const answers: Record<string, Answer> = {};
    await Promise.all(
      entries.map(async ([id, question]) => {
        try {
          const { outcomes, distribution } = await reader.read(question);
          answers[id] = buildAnswer(question, outcomes, distribution);
        } catch (error) {
          siblingFailure.abort(error);
          throw error;
        }
      }),
    );
    return { answers: orderLike(entries, answers), usage: tally.toUsage() };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeout.signal.aborted) throw timeout.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Answers in the order the questions were asked, whatever order the server finished them in. */
function orderLike(
  entries: ReadonlyArray<[string, unknown]>,
  answers: Record<string, Answer>,
): Record<string, Answer> {
  return Object.fromEntries(entries.map(([id]) => [id, answers[id]!]));
}
