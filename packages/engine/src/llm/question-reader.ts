import { EngineError, type Question } from '@arbiter/decision';
import type { OutcomeDistribution } from './answer-builder.js';
import type { ChatCompletion } from './chat-completion-wire.js';
import type { ConcurrencyLimiter } from './concurrency-limiter.js';
import { combineGroupDistributions, groupOptions } from './hierarchical-groups.js';
import { type LabelDistribution, readLabelDistribution } from './label-distribution.js';
import { type LabelledOutcome, labelOutcomes, MAX_TOP_LOGPROBS } from './labelled-outcome.js';
import type { OpenAICompatibleClient } from './openai-compatible-client.js';
import type { OpenAICompatibleEngineConfig } from './openai-compatible-config.js';
import { type ChatMessage, groupQuestionMessages, questionMessages } from './prompt-layout.js';
import { applyTemperature } from './temperature-scaling.js';
import { UpstreamStatusError } from './upstream-status-error.js';
import type { UsageTally } from './usage-tally.js';

/** State one engine keeps across requests. */
export interface EngineRuntime {
  readonly config: OpenAICompatibleEngineConfig;
  readonly client: OpenAICompatibleClient;
  readonly limiter: ConcurrencyLimiter;
  /** Set in `auto` mode once the server has answered without logprobs; later questions go verbalised. */
  serverLacksLogprobs: boolean;
  /** Token id of each numeric label, or null when the label is not one token (token-ids mode). */
  readonly labelTokenIds: Map<string, number | null>;
}

/** State of one `evaluate` call. */
export interface RequestContext {
  readonly prefix: string;
  readonly signal: AbortSignal;
  readonly deadlineAt: number;
  readonly tally: UsageTally;
}

export interface QuestionReading {
  readonly outcomes: readonly LabelledOutcome[];
  readonly distribution: OutcomeDistribution;
}

type LogprobReading =
  | { kind: 'read'; distribution: LabelDistribution }
  | { kind: 'no-logprobs' }
  | { kind: 'no-label' };

/**
 * Reads one question's distribution from the model server: one logprob call (≤ 20 outcomes), the
 * token-id call or the two-step hierarchical scheme (> 20 options), or the verbalised fallback. Applies
 * the configured calibration temperature last, whichever way the distribution was read.
 */
export class QuestionReader {
  constructor(
    private readonly runtime: EngineRuntime,
    private readonly request: RequestContext,
  ) {}

  async read(question: Question): Promise<QuestionReading> {
    const reading = await this.readUncalibrated(question);
    const temperature = this.runtime.config.calibration?.[question.type]?.temperature ?? 1;
    if (temperature === 1) return reading;
    return {
      outcomes: reading.outcomes,
      distribution: {
        ...reading.distribution,
        probabilities: applyTemperature(reading.distribution.probabilities, temperature),
      },
    };
  }

  private async readUncalibrated(question: Question): Promise<QuestionReading> {
    const mode = this.runtime.config.logprobs;
    if (mode === 'none' || (mode === 'auto' && this.runtime.serverLacksLogprobs))
      return this.readVerbalised(question);

    const optionCount = question.type === 'choice' ? Object.keys(question.criteria).length : 0;
    let outcome: { outcomes: readonly LabelledOutcome[]; reading: LogprobReading } | undefined;
    if (optionCount > MAX_TOP_LOGPROBS && mode === 'token-ids') outcome = await this.readByTokenIds(question);
    if (outcome === undefined && optionCount > MAX_TOP_LOGPROBS)
      outcome = await this.readHierarchically(question);
    if (outcome === undefined) {
      const outcomes = labelOutcomes(question, 'letters');
      const messages = questionMessages(this.request.prefix, question, outcomes, 'label');
      outcome = { outcomes, reading: await this.readLogprobs(messages, outcomes, {}) };
    }

    const { outcomes, reading } = outcome;
    if (reading.kind === 'read') {
      return { outcomes, distribution: { ...reading.distribution, verbalised: false } };
    }
    if (mode === 'auto') {
      if (reading.kind === 'no-logprobs') this.runtime.serverLacksLogprobs = true;
      return this.readVerbalised(question);
    }
    throw new EngineError({
      code: 'engine_error',
      message:
        reading.kind === 'no-logprobs'
          ? `the model server returned no logprobs; configure logprobs "none" (verbalised) or "auto" for this model`
          : 'the model replied with none of the answer labels, so no distribution could be read',
    });
  }

  /** One call whose next-token logprobs are read over the outcome labels. */
  private async readLogprobs(
    messages: ChatMessage[],
    outcomes: readonly LabelledOutcome[],
    extra: Record<string, unknown>,
  ): Promise<LogprobReading> {
    let completion: ChatCompletion;
    try {
      completion = await this.complete({
        messages,
        max_tokens: 1,
        logprobs: true,
        top_logprobs: MAX_TOP_LOGPROBS,
        ...extra,
      });
    } catch (error) {
      // Gateways and some models refuse the logprobs members outright (400 "logprobs is not supported");
      // in `auto` mode that is the same finding as a reply without logprobs.
      if (this.runtime.config.logprobs === 'auto' && isLogprobsRefusal(error)) return { kind: 'no-logprobs' };
      throw error;
    }
    const first = completion.choices[0]?.logprobs?.content?.[0];
    if (!first) return { kind: 'no-logprobs' };
    // Some servers omit top_logprobs and report only the sampled token; that token is still evidence.
    const top = first.top_logprobs?.length ? first.top_logprobs : [first];
    const distribution = readLabelDistribution(
      top,
      outcomes.map((outcome) => outcome.label),
    );
    return distribution.coverage > 0 ? { kind: 'read', distribution } : { kind: 'no-label' };
  }

  /**
   * All options in one call, labelled 1…n: the server restricts the next token to the labels' token ids
   * (`allowed_token_ids`, vLLM) and reports `top_logprobs` for all n of them. This needs vLLM started with
   * `--logprobs-mode processed_logprobs` (the default reports logprobs before the restriction) and
   * `--max-logprobs` ≥ n. Undefined when a label is not a single token for this model, so the caller uses
   * the hierarchical scheme instead.
   */
  private async readByTokenIds(
    question: Question,
  ): Promise<{ outcomes: readonly LabelledOutcome[]; reading: LogprobReading } | undefined> {
    const outcomes = labelOutcomes(question, 'numbers');
    const ids = await this.labelTokenIds(outcomes.map((outcome) => outcome.label));
    if (ids === undefined) return undefined;
    const messages = questionMessages(this.request.prefix, question, outcomes, 'label');
    const reading = await this.readLogprobs(messages, outcomes, {
      allowed_token_ids: ids,
      top_logprobs: outcomes.length,
      // With processed logprobs a checkpoint's default top-k/top-p (generation_config) would cut
      // low-probability labels out of the reported distribution; neutralise both.
      top_k: -1,
      top_p: 1,
    });
    return { outcomes, reading };
  }

  private async labelTokenIds(labels: readonly string[]): Promise<number[] | undefined> {
    const cache = this.runtime.labelTokenIds;
    const call = { signal: this.request.signal, deadlineAt: this.request.deadlineAt };
    await Promise.all(
      labels
        .filter((label) => !cache.has(label))
        .map(async (label) => {
          try {
            const tokens = await this.runtime.client.tokenize(this.runtime.config.model, label, call);
            cache.set(label, tokens.length === 1 ? tokens[0]! : null);
          } catch (error) {
            // A server without `/tokenize` cannot give exact ids; remember it and read hierarchically.
            if (!(error instanceof UpstreamStatusError && (error.status === 404 || error.status === 405)))
              throw error;
            cache.set(label, null);
          }
        }),
    );
    const ids = labels.map((label) => cache.get(label));
    return ids.every((id): id is number => typeof id === 'number') ? ids : undefined;
  }

  /**
   * More than 20 options with standard logprobs: first which group of ≤ 20 holds the best option, then
   * which option within each group, all calls concurrent; P(option) = P(group) · P(option | group).
   */
  private async readHierarchically(
    question: Question,
  ): Promise<{ outcomes: readonly LabelledOutcome[]; reading: LogprobReading }> {
    const outcomes = labelOutcomes(question, 'numbers');
    const groups = groupOptions(outcomes);
    const groupOutcomes = groups.map((group) => ({
      key: group.label,
      label: group.label,
      description: null,
    }));
    const groupStep = this.readLogprobs(
      groupQuestionMessages(this.request.prefix, question, groups),
      groupOutcomes,
      {},
    );
    const withinGroups = groups.map((group) =>
      group.options.length === 1
        ? Promise.resolve<LogprobReading>({ kind: 'read', distribution: { probabilities: [1], coverage: 1 } })
        : this.readLogprobs(
            questionMessages(this.request.prefix, question, group.options, 'label'),
            group.options,
            {},
          ),
    );
    const [first, ...second] = await Promise.all([groupStep, ...withinGroups]);
    if (first!.kind !== 'read') return { outcomes, reading: first! };
    const inner: LabelDistribution[] = [];
    for (const [g, reading] of second.entries()) {
      if (reading.kind === 'read') inner.push(reading.distribution);
      // A group the first step gave no probability contributes nothing, whatever its own step read.
      else if ((first!.distribution.probabilities[g] ?? 0) === 0)
        inner.push({ probabilities: groups[g]!.options.map(() => 0), coverage: 0 });
      else return { outcomes, reading };
    }
    const distribution = combineGroupDistributions(outcomes.length, groups, first!.distribution, inner);
    return { outcomes, reading: { kind: 'read', distribution } };
  }

  /** Structured output: the model states a distribution over the labels as JSON. */
  private async readVerbalised(question: Question): Promise<QuestionReading> {
    const optionCount = question.type === 'choice' ? Object.keys(question.criteria).length : 0;
    const outcomes = labelOutcomes(question, optionCount > MAX_TOP_LOGPROBS ? 'numbers' : 'letters');
    const labels = outcomes.map((outcome) => outcome.label);
    const completion = await this.complete({
      messages: questionMessages(this.request.prefix, question, outcomes, 'distribution'),
      max_tokens: 32 + 12 * labels.length,
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'answer_distribution',
          strict: true,
          schema: {
            type: 'object',
            properties: Object.fromEntries(labels.map((label) => [label, { type: 'number' }])),
            required: labels,
            additionalProperties: false,
          },
        },
      },
    });
    const probabilities = parseStatedDistribution(completion.choices[0]?.message?.content, labels);
    return { outcomes, distribution: { probabilities, verbalised: true } };
  }

  private async complete(members: Record<string, unknown>): Promise<ChatCompletion> {
    const { config, client, limiter } = this.runtime;
    const body = { model: config.model, temperature: 0, ...thinkingMembers(config), ...members };
    const call = { signal: this.request.signal, deadlineAt: this.request.deadlineAt };
    const completion = await limiter.run(() => client.chatCompletion(body, call), this.request.signal);
    this.request.tally.add(completion);
    return completion;
  }
}

function isLogprobsRefusal(error: unknown): boolean {
  return (
    error instanceof UpstreamStatusError &&
    (error.status === 400 || error.status === 422) &&
    /logprob/i.test(error.message)
  );
}

export function thinkingMembers(config: OpenAICompatibleEngineConfig): Record<string, unknown> {
  switch (config.disableThinking) {
    case 'chat-template-kwargs':
      return { chat_template_kwargs: { enable_thinking: false } };
    case 'reasoning-effort':
      return { reasoning_effort: 'minimal' };
    case 'none':
      return {};
  }
}

/** Reads `{label: probability}` from the model's JSON reply; anything malformed is an error, not a guess. */
export function parseStatedDistribution(
  content: string | null | undefined,
  labels: readonly string[],
): number[] {
  const invalid = (why: string) =>
    new EngineError({ code: 'engine_error', message: `the model's stated distribution is unusable: ${why}` });
  let json: unknown;
  try {
    json = JSON.parse(content ?? '');
  } catch {
    throw invalid('the reply is not JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw invalid('the reply is not an object');
  const record = json as Record<string, unknown>;
  const values = labels.map((label) => record[label]);
  if (
    !values.every(
      (value): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0,
    )
  ) {
    throw invalid('every label needs a non-negative number');
  }
  const total = values.reduce((sum, value) => sum + value, 0);
  if (total <= 0) throw invalid('the probabilities sum to zero');
  return values.map((value) => value / total);
}
