import {
  type Answer,
  type DecisionEngine,
  EngineError,
  type EvaluateOptions,
  type EvaluateResult,
  type Question,
} from '@arbiter/decision';
import type { Token } from 'node-llama-cpp';
import { buildAnswer } from '../llm/answer-builder.js';
import {
  type LabelledOutcome,
  labelChoiceOptions,
  labelOutcomes,
  MAX_TOP_LOGPROBS,
} from '../llm/labelled-outcome.js';
import {
  labelSequenceLogProbabilities,
  longestLabel,
  normaliseOverLabels,
} from './label-sequence-scoring.js';
import {
  type LlamaCppEngineConfig,
  type LlamaCppEngineConfigInput,
  llamaCppEngineConfigSchema,
  type PromptLayout,
} from './llama-cpp-config.js';
import { type LoadedModel, loadModel } from './llama-runtime.js';
import { averageDistributions, optionOrders } from './option-orders.js';
import { questionSuffixPieces, resolvePromptLayout, statePrefixPieces } from './prompt-layouts.js';
import { beginning, labelTokens, tokenise } from './prompt-tokens.js';
import type { QuestionPlan, ReadingPlan } from './question-plan.js';
import { SequencePool } from './sequence-pool.js';
import { SequenceReader } from './sequence-reader.js';
import { planSystemOneQuestions, type WholePromptPlan } from './system-one-model.js';

export const LLAMA_CPP_ENGINE_ID = 'llama-cpp';

export interface LlamaCppEngine extends DecisionEngine {
  readonly config: LlamaCppEngineConfig;
  /** Loads the model now rather than at the first question; resolves to the load time in ms. */
  load(): Promise<{ loadMs: number }>;
  /** Frees the model and its context; a later question loads them again. */
  close(): Promise<void>;
}

interface Runtime {
  readonly loaded: LoadedModel;
  readonly pool: SequencePool;
  /** Token sequence of each label after the layout's close, by label text. */
  readonly labelTokens: Map<string, Token[]>;
}

/**
 * A decision engine that runs a GGUF model in process with llama.cpp (node-llama-cpp).
 *
 * Each answer is read from the model's next-token distribution over its whole vocabulary: a label's
 * probability is that of its full token sequence, and the labels are then renormalised. The state's
 * prefix is evaluated once per request and kept in the sequence's KV cache; each question evaluates
 * only its own suffix and is then erased back to the prefix, so six questions cost one state.
 *
 * @example
 * const engine = createLlamaCppEngine({ kind: 'llama-cpp', model: { path: 'models/judge.gguf' }, layout: 'chatml' });
 * const { answers } = await engine.evaluate({ state: 'Production is down!', questions: { urgent: { type: 'noul', instructions: 'Is this urgent?' } } });
 */
export function createLlamaCppEngine(input: LlamaCppEngineConfigInput): LlamaCppEngine {
  const config = llamaCppEngineConfigSchema.parse(input);
  const layout = resolvePromptLayout(config.layout);
  let runtime: Promise<Runtime> | undefined;

  const start = (): Promise<Runtime> => {
    runtime ??= loadModel(config).then(
      (loaded) => ({
        loaded,
        pool: new SequencePool(
          Array.from({ length: config.sequences }, () =>
            Array.from({ length: config.lanes }, () => loaded.context.getSequence()),
          ),
        ),
        labelTokens: new Map(),
      }),
      (error: unknown) => {
        runtime = undefined;
        throw error;
      },
    );
    return runtime;
  };

  return {
    specificationVersion: 'v1',
    engineId: LLAMA_CPP_ENGINE_ID,
    config,
    load: async () => ({ loadMs: (await start()).loaded.loadMs }),
    close: async () => {
      const current = runtime;
      runtime = undefined;
      if (!current) return;
      const { loaded } = await current.catch(() => ({ loaded: undefined }));
      if (!loaded) return;
      await loaded.context.dispose();
      await loaded.model.dispose();
    },
    evaluate: (options) => evaluate(config, layout, start, options),
  };
}

async function evaluate(
  config: LlamaCppEngineConfig,
  layout: PromptLayout,
  start: () => Promise<Runtime>,
  options: EvaluateOptions,
): Promise<EvaluateResult> {
  options.signal?.throwIfAborted();
  const timeout = new AbortController();
  const timer = setTimeout(
    () =>
      timeout.abort(
        new EngineError({
          code: 'engine_timeout',
          message: `the model did not answer within the ${config.timeoutMs} ms budget`,
        }),
      ),
    config.timeoutMs,
  );
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  try {
    const runtime = await start();
    const { model, systemOne } = runtime.loaded;
    const entries = Object.entries(options.questions);
    let prefix: Token[];
    let plans: QuestionPlan[];
    if (systemOne) {
      ({ prefix, plans } = cutSharedPrefix(
        planSystemOneQuestions(model, systemOne, config, options.state, entries),
      ));
    } else {
      prefix = [...beginning(model), ...tokenise(model, statePrefixPieces(layout, options.state))];
      plans = entries.map(([, question]) => planQuestion(config, layout, runtime, question));
    }
    checkContext(config, prefix, plans);

    const slot = await runtime.pool.acquire(prefix, signal);
    try {
      const readers = slot.map((sequence) => new SequenceReader(sequence, signal));
      const lead = readers[0]!;
      await lead.restorePrefix(prefix);
      const readings = plans.flatMap((plan, question) =>
        plan.readings.map((reading, order) => ({ question, order, reading })),
      );
      const lanes = readers.slice(0, Math.max(1, Math.min(readers.length, readings.length)));
      await Promise.all(lanes.slice(1).map((lane) => lane.copyPrefixFrom(lead.sequence, prefix)));

      // Each reading needs the prefix, and only the prefix, in its lane's KV cache, so its answer
      // cannot depend on which other questions were asked. The lanes decode together: node-llama-cpp
      // puts their pending tokens into one batch.
      const results: ReadingResult[][] = plans.map(() => []);
      await Promise.all(
        lanes.map(async (lane, laneIndex) => {
          for (let next = laneIndex; next < readings.length; next += lanes.length) {
            const { question, order, reading } = readings[next]!;
            // By order, not by finishing time, so the average sums in the same order every time.
            results[question]![order] = await readOne(lane, reading);
          }
        }),
      );
      const answers: Record<string, Answer> = {};
      for (const [index, [id]] of entries.entries()) answers[id] = combine(plans[index]!, results[index]!);
      const evaluated = readers.reduce((sum, reader) => sum + reader.evaluatedTokens, 0);
      return { answers, usage: { input_tokens: evaluated, output_tokens: 0 } };
    } finally {
      runtime.pool.release(slot);
    }
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeout.signal.aborted) throw timeout.signal.reason;
    if (EngineError.isInstance(error)) throw error;
    throw new EngineError({
      code: 'engine_error',
      message: `llama.cpp failed: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}

interface ReadingResult {
  readonly distribution: Map<string, number>;
  readonly coverage: number;
}

async function readOne(reader: SequenceReader, reading: ReadingPlan): Promise<ReadingResult> {
  const logProbabilities = await labelSequenceLogProbabilities(reader, reading.suffix, reading.labels);
  await reader.rewind(reading.suffix.length);
  // Dividing log-probabilities by T is dividing the logits by T: the normaliser is shared by all labels.
  const tempered = normaliseOverLabels(logProbabilities.map((value) => value / reading.temperature));
  return {
    distribution: new Map(
      reading.outcomes.map((outcome, index) => [outcome.key, tempered.probabilities[index]!]),
    ),
    coverage: normaliseOverLabels(logProbabilities).coverage,
  };
}

/** A question's answer from its readings (one per option order), averaged. */
function combine(plan: QuestionPlan, results: readonly ReadingResult[]): Answer {
  const averaged = averageDistributions(results.map((result) => result.distribution));
  const mean = plan.collapse ? plan.collapse(averaged) : averaged;
  const coverage = results.reduce((sum, result) => sum + result.coverage, 0) / results.length;
  return buildAnswer(
    plan.question,
    plan.outcomes,
    { probabilities: plan.outcomes.map((outcome) => mean.get(outcome.key)!), coverage, verbalised: false },
    LLAMA_CPP_ENGINE_ID,
  );
}

function planQuestion(
  config: LlamaCppEngineConfig,
  layout: PromptLayout,
  runtime: Runtime,
  question: Question,
): QuestionPlan {
  const { model } = runtime.loaded;
  const reading = (outcomes: readonly LabelledOutcome[]): ReadingPlan => ({
    outcomes,
    suffix: tokenise(model, questionSuffixPieces(layout, question, outcomes)),
    labels: outcomes.map((outcome) => labelTokens(model, layout, outcome.label, runtime.labelTokens)),
    temperature: 1,
  });
  switch (question.type) {
    case 'noul': {
      const outcomes = labelOutcomes(question).map((outcome) => ({
        ...outcome,
        label: outcome.key === 'true' ? layout.noulLabels.true : layout.noulLabels.false,
      }));
      return { question, outcomes, readings: [reading(outcomes)] };
    }
    case 'score': {
      const outcomes = labelOutcomes(question);
      return { question, outcomes, readings: [reading(outcomes)] };
    }
    case 'choice': {
      const orders = optionOrders(
        Object.entries(question.criteria),
        ([key]) => key,
        config.optionOrder,
        config.orderRotations,
      );
      const alphabet = orders[0]!.length > MAX_TOP_LOGPROBS ? 'numbers' : 'letters';
      const readings = orders.map((order) => reading(labelChoiceOptions(order, alphabet)));
      return { question, outcomes: readings[0]!.outcomes, readings };
    }
  }
}

/**
 * The tokens every reading of a request starts with, evaluated once and shared, and each reading's
 * remaining suffix. The shared part ends at the end of the state at the latest, so it cannot depend on
 * which other questions are asked (a longer shared part would change how the rest is batched, and so
 * an answer's last digits). Where a template puts question text before the state, the readings share
 * less, and the law holds only to rounding. Every suffix keeps at least one token, the one the answer
 * is read after.
 */
function cutSharedPrefix(whole: readonly WholePromptPlan[]): { prefix: Token[]; plans: QuestionPlan[] } {
  const readings = whole.flatMap((plan) => plan.readings);
  const first = readings[0]?.tokens ?? [];
  let length = Math.max(
    0,
    Math.min(...readings.map((reading) => Math.min(reading.stateTokens, reading.tokens.length - 1))),
  );
  for (const { tokens } of readings) {
    let same = 0;
    while (same < length && tokens[same] === first[same]) same++;
    length = same;
  }
  const plans = whole.map((plan) => ({
    ...plan,
    readings: plan.readings.map(({ tokens, stateTokens: _, ...reading }) => ({
      ...reading,
      suffix: tokens.slice(length),
    })),
  }));
  return { prefix: first.slice(0, length), plans };
}

function checkContext(
  config: LlamaCppEngineConfig,
  prefix: readonly Token[],
  plans: readonly QuestionPlan[],
) {
  let longest = 0;
  for (const plan of plans) {
    for (const reading of plan.readings) {
      longest = Math.max(longest, reading.suffix.length + longestLabel(reading.labels));
    }
  }
  if (prefix.length + longest > config.contextSize) {
    throw new EngineError({
      code: 'engine_error',
      message: `the state and the longest question need ${prefix.length + longest} tokens; this model's context holds ${config.contextSize} (contextSize)`,
    });
  }
}
