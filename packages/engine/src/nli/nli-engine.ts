import {
  type Answer,
  type AnswerMeta,
  type DecisionEngine,
  EngineError,
  type EvaluateOptions,
  type EvaluateResult,
  type Question,
} from '@arbiter/decision';
import { normalisedEntropyConfidence } from '../answer-confidence.js';
import { canonicalText } from '../instruction-text.js';
import { ConcurrencyLimiter } from '../llm/concurrency-limiter.js';
import type { CrossEncoder, EncodedPair } from './cross-encoder.js';
import type { NliEngineConfig } from './nli-engine-config.js';
import { hypothesesOf, type QuestionHypotheses } from './nli-hypotheses.js';
import { shortlistOptions } from './option-shortlist.js';
import { premiseWindows } from './premise-windows.js';

export const NLI_ENGINE_ID = 'nli';
/** Hypotheses longer than this share of a pair are cut, so that a window of state always fits. */
const MAX_HYPOTHESIS_SHARE = 0.5;

interface PlannedQuestion {
  readonly id: string;
  readonly question: Question;
  readonly hypotheses: QuestionHypotheses;
  /** Indices of the hypotheses the model reads (all, unless a shortlist cut a large Choice). */
  readonly evaluated: readonly number[];
  readonly evidence: string[];
}

/**
 * The `nli` engine: every question becomes hypotheses (nli-hypotheses.ts) paired with windows of
 * the state, all pairs of a request are scored in batches by one cross-encoder, and each
 * hypothesis keeps, per label, its strongest logit over the windows (a state supports a statement
 * when some part of it does, and contradicts it when some part does).
 */
export class NliEngine implements DecisionEngine {
  readonly specificationVersion = 'v1';
  readonly engineId = NLI_ENGINE_ID;
  /** One onnxruntime run at a time: its intra-op threads are the parallelism. */
  readonly #limiter = new ConcurrencyLimiter(1);

  constructor(
    private readonly model: CrossEncoder,
    private readonly config: NliEngineConfig,
  ) {}

  async evaluate(options: EvaluateOptions): Promise<EvaluateResult> {
    const model = this.model;
    const stateIds = model.tokenize(canonicalText(options.state));
    const ignored = model.specialIds;

    const plans: PlannedQuestion[] = [];
    const hypothesisIds: number[][][] = [];
    const maxHypothesis = Math.floor((model.maxLength - model.template.overhead) * MAX_HYPOTHESIS_SHARE);
    for (const [id, question] of Object.entries(options.questions)) {
      const hypotheses = hypothesesOf(question, this.config);
      const evidence: string[] = [];
      const ids = hypotheses.hypotheses.map((text) => {
        const tokens = model.tokenize(text);
        if (tokens.length <= maxHypothesis) return tokens;
        if (!evidence.includes('nli:hypothesis-truncated')) evidence.push('nli:hypothesis-truncated');
        return tokens.slice(0, maxHypothesis);
      });
      const evaluated =
        question.type === 'choice'
          ? shortlistOptions(stateIds, ids, this.config.shortlist, ignored)
          : ids.map((_, i) => i);
      if (evaluated.length < ids.length) evidence.push('nli:shortlisted');
      plans.push({ id, question, hypotheses, evaluated, evidence });
      hypothesisIds.push(ids);
    }

    // Each hypothesis reads the state in windows sized by its own length, never by the other
    // hypotheses of the request: sized by the longest one, removing a long option (or asking
    // another question alongside) moved every other option's windows and so its probability
    // (by up to 0.044 in the probes of issue 28, on the fixture model whose pairs hold 64 tokens).
    const windowsBySize = new Map<number, { windows: number[][]; truncated: boolean }>();
    const windowsFor = (hypothesisLength: number) => {
      const size = model.maxLength - model.template.overhead - hypothesisLength;
      let cut = windowsBySize.get(size);
      if (!cut) {
        cut = premiseWindows(stateIds, size, this.config.chunkOverlap, this.config.maxChunks);
        windowsBySize.set(size, cut);
      }
      return cut;
    };

    const pairs: EncodedPair[] = [];
    const slots: { question: number; hypothesis: number; window: number }[] = [];
    const truncatedQuestions = new Set<number>();
    plans.forEach((plan, q) => {
      for (const h of plan.evaluated) {
        const hypothesis = hypothesisIds[q]![h]!;
        const { windows, truncated } = windowsFor(hypothesis.length);
        if (truncated) truncatedQuestions.add(q);
        windows.forEach((window, w) => {
          pairs.push(model.template.join(window, hypothesis));
          slots.push({ question: q, hypothesis: h, window: w });
        });
      }
    });

    let logits: Float32Array[];
    try {
      logits = await this.#limiter.run(
        () => model.logits(pairs, this.config.batchSize, options.signal),
        options.signal,
      );
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new EngineError({
        code: 'engine_error',
        message: `nli model failed: ${(error as Error).message}`,
        cause: error,
      });
    }

    // Per question and hypothesis, the strongest entailment and contradiction logit over windows.
    const { entailment, contradiction } = model.labels;
    const best = plans.map((plan) =>
      plan.hypotheses.hypotheses.map(() => ({ entailment: -Infinity, contradiction: -Infinity })),
    );
    slots.forEach((slot, index) => {
      const row = logits[index]!;
      const cell = best[slot.question]![slot.hypothesis]!;
      cell.entailment = Math.max(cell.entailment, row[entailment]!);
      cell.contradiction = Math.max(cell.contradiction, row[contradiction]!);
    });

    const answers: Record<string, Answer> = {};
    plans.forEach((plan, q) => {
      const evidence = truncatedQuestions.has(q) ? [...plan.evidence, 'nli:state-truncated'] : plan.evidence;
      answers[plan.id] = answerOf(plan, best[q]!, evidence);
    });
    const inputTokens = pairs.reduce((sum, pair) => sum + pair.ids.length, 0);
    return { answers, usage: { input_tokens: inputTokens, output_tokens: 0 } };
  }
}

function answerOf(
  plan: PlannedQuestion,
  logits: readonly { entailment: number; contradiction: number }[],
  evidence: readonly string[],
): Answer {
  const meta: AnswerMeta = { engine: NLI_ENGINE_ID, abstained: false };
  if (evidence.length > 0) meta.evidence = [...evidence];
  const { question, hypotheses } = plan;
  if (question.type === 'noul') {
    const [first, second] = logits;
    const pair =
      hypotheses.reading === 'entailment-vs-contradiction'
        ? [first!.entailment, first!.contradiction]
        : [first!.entailment, second!.entailment];
    return { type: 'noul', noul: softmax(pair)[0]!, arbiter: meta };
  }
  // Options the shortlist left out are taken as no more likely than the least likely evaluated one.
  const evaluated = new Set(plan.evaluated);
  const floor = Math.min(...plan.evaluated.map((index) => logits[index]!.entailment));
  const probabilities = softmax(
    logits.map((cell, index) => (evaluated.has(index) ? cell.entailment : floor)),
  );
  const byOutcome = Object.fromEntries(hypotheses.outcomes.map((key, index) => [key, probabilities[index]!]));
  const confidence = normalisedEntropyConfidence(probabilities);
  if (question.type === 'choice') {
    return {
      type: 'choice',
      choice: hypotheses.outcomes[argmax(probabilities)]!,
      confidence,
      probabilities: byOutcome,
      arbiter: meta,
    };
  }
  return {
    type: 'score',
    score: probabilities.reduce((sum, p, level) => sum + p * level, 0),
    confidence,
    probabilities: byOutcome,
    legend: Object.fromEntries(question.criteria.map((level, index) => [String(index), level])),
    arbiter: meta,
  };
}

/** Softmax with the maximum subtracted first, so large logits do not overflow. */
export function softmax(values: readonly number[]): number[] {
  const max = Math.max(...values);
  const exps = values.map((value) => Math.exp(value - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((value) => Math.min(1, Math.max(0, value / sum)));
}

function argmax(values: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}
