import { EngineError, type Question, type State } from '@arbiter/decision';
import type { Template } from '@huggingface/jinja';
import type { LlamaModel, Token } from 'node-llama-cpp';
import { type LabelledOutcome, labelOutcomes } from '../llm/labelled-outcome.js';
import type { DecisionModelMetadata } from './decision-model-metadata.js';
import type { LlamaCppEngineConfig } from './llama-cpp-config.js';
import { tokenise } from './prompt-tokens.js';
import type { QuestionPlan, ReadingPlan } from './question-plan.js';
import {
  HEAD_DECISION_TYPES,
  LABEL_TOKEN_DECISION_TYPES,
  type SystemOneProfile,
  temperatureFor,
} from './system-one-profiles.js';
import {
  compileSystemOneTemplate,
  renderSystemOnePrompt,
  type SystemOneOption,
  type SystemOneQuestion,
} from './system-one-prompt.js';

/**
 * A loaded System One model of a type that answers with label tokens: its profile, its compiled
 * template, its answer labels and its temperatures, all from the file itself.
 */
export interface SystemOneModel {
  readonly decisionType: string;
  readonly profile: SystemOneProfile;
  readonly template: Template;
  /** Label tokens in order: the i-th option shown is answered by the i-th label. */
  readonly labels: readonly Token[];
  readonly labelTexts: readonly string[];
  readonly temperatures: ReadonlyMap<string, number>;
}

/**
 * The declaration the engine follows: the file's, with the parts the configuration gives replacing
 * it (`systemOne`); `null` when neither names a type.
 */
export function resolveDeclaration(
  fromFile: DecisionModelMetadata | null,
  configured: LlamaCppEngineConfig['systemOne'],
): DecisionModelMetadata | null {
  const decisionType = configured?.type ?? fromFile?.decisionType;
  if (decisionType === undefined) return null;
  return {
    architecture: fromFile?.architecture ?? '',
    decisionType,
    template: configured?.template ?? fromFile?.template ?? null,
    temperatures: configured?.temperatures
      ? new Map(Object.entries(configured.temperatures))
      : (fromFile?.temperatures ?? new Map()),
    source: configured?.type !== undefined ? 'configuration' : 'file',
  };
}

/** Checks, before anything heavy is loaded, that this engine can read the declared decision model. */
export function checkDecisionModel(modelPath: string, declared: DecisionModelMetadata): SystemOneProfile {
  const where =
    declared.source === 'file'
      ? `${modelPath} is a System One decision model (${declared.architecture}.decision.type = "${declared.decisionType}")`
      : `${modelPath} is configured as a System One decision model of type "${declared.decisionType}" (systemOne.type)`;
  // The type is read from the model file: a table lookup must not reach Object.prototype.
  const head = Object.hasOwn(HEAD_DECISION_TYPES, declared.decisionType)
    ? HEAD_DECISION_TYPES[declared.decisionType]
    : undefined;
  if (head !== undefined) {
    throw new EngineError({
      code: 'engine_unavailable',
      message: `${where} that answers with ${head}, which llama.cpp runs from release v0.6.0 (llama-server, POST /v1/systemone); the llama.cpp bundled with node-llama-cpp here does not, and its label tokens are not its answers. Serve it with llama-server.`,
      isRetryable: false,
    });
  }
  const profile = Object.hasOwn(LABEL_TOKEN_DECISION_TYPES, declared.decisionType)
    ? LABEL_TOKEN_DECISION_TYPES[declared.decisionType]
    : undefined;
  if (profile === undefined) {
    throw new EngineError({
      code: 'engine_unavailable',
      message: `${where} of a type this engine does not know how to read (known: ${Object.keys(LABEL_TOKEN_DECISION_TYPES).join(', ')}); set decisionMetadata: ignore to read it as a plain language model with the configured layout.`,
      isRetryable: false,
    });
  }
  if (declared.template === null) {
    throw new EngineError({
      code: 'engine_unavailable',
      message: `${where} with no prompt template (tokenizer.chat_template.systemone, or systemOne.template in the configuration), so how it expects a question cannot be known.`,
      isRetryable: false,
    });
  }
  for (const [key, value] of declared.temperatures) {
    if (!(value > 0) || !Number.isFinite(value)) {
      throw new EngineError({
        code: 'engine_unavailable',
        message: `${where} with an invalid temperature: decision.temperature.${key} = ${value}`,
        isRetryable: false,
      });
    }
  }
  return profile;
}

/** The answer labels of a profile, as single tokens of this model's vocabulary. */
export function prepareSystemOneModel(
  model: LlamaModel,
  declared: DecisionModelMetadata,
  profile: SystemOneProfile,
): SystemOneModel {
  const single = (text: string) => {
    const tokens = model.tokenize(text, false);
    return tokens.length === 1 ? tokens[0]! : undefined;
  };
  const labels: Token[] = [];
  const labelTexts: string[] = [];
  if (profile.labels === 'letters') {
    for (const letter of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz') {
      const token = single(letter);
      if (token === undefined) {
        throw new EngineError({
          code: 'engine_unavailable',
          message: `the decision label "${letter}" is not a single token of this model's vocabulary`,
          isRetryable: false,
        });
      }
      labels.push(token);
      labelTexts.push(letter);
    }
  } else {
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');
    const codes = [...letters, ...letters.flatMap((a) => letters.map((b) => a + b))];
    for (const code of codes) {
      const token = single(code);
      if (token !== undefined && labels.length < 255) {
        labels.push(token);
        labelTexts.push(code);
      }
    }
  }
  return {
    decisionType: declared.decisionType,
    profile,
    template: compileSystemOneTemplate(declared.template!),
    labels,
    labelTexts,
    temperatures: declared.temperatures,
  };
}

/** A planned question whose readings still hold their whole prompts; the shared prefix is cut later. */
export interface WholePromptPlan extends Omit<QuestionPlan, 'readings'> {
  readonly readings: ReadonlyArray<
    Omit<ReadingPlan, 'suffix'> & {
      readonly tokens: readonly Token[];
      /** How many of `tokens` reach the end of the state: the most the request may share. */
      readonly stateTokens: number;
    }
  >;
}

/**
 * How one question is read from a System One model, following its profile: its options in the order
 * shown (a Choice sorted by name under `optionOrder: canonical`, so the request's order cannot reach
 * the model; a second, reversed reading where the profile averages two), one label token per option
 * (or per rating, for a Noul read as a rating scale), and the fitted temperature.
 */
export function planSystemOneQuestions(
  model: LlamaModel,
  systemOne: SystemOneModel,
  config: LlamaCppEngineConfig,
  state: State,
  questions: ReadonlyArray<readonly [string, Question]>,
): WholePromptPlan[] {
  const { profile } = systemOne;
  const shown = questions.map(([id, question]) => toTemplateQuestion(id, question, profile, config));
  return questions.map(([, question], index) => {
    const asked = shown[index]!;
    const variants =
      profile.reverseVariant && question.type === 'choice' && asked.options.length > 1
        ? [asked.options, [...asked.options].reverse()]
        : [asked.options];
    const rating = question.type === 'noul' && profile.noulRatings > 0;
    const outputs = rating ? profile.noulRatings : asked.options.length;
    if (outputs > systemOne.labels.length) {
      throw new EngineError({
        code: 'engine_error',
        message: `this ${systemOne.decisionType} model answers at most ${systemOne.labels.length} options; the question has ${outputs}`,
      });
    }
    const temperature = temperatureFor(systemOne.temperatures, profile, question.type, asked.options.length);
    const labels = systemOne.labels.slice(0, outputs).map((token) => [token]);
    const readings = variants.map((options) => {
      const { pieces, stateEnd } = renderSystemOnePrompt(
        systemOne.template,
        profile,
        state,
        { ...asked, options },
        shown,
        systemOne.labelTexts,
      );
      const outcomes: LabelledOutcome[] = rating
        ? Array.from({ length: outputs }, (_, level) => ({
            key: `rating:${level}`,
            label: systemOne.labelTexts[level]!,
            description: null,
          }))
        : options.map((option, position) => ({
            key: option.key,
            label: systemOne.labelTexts[position]!,
            description: null,
          }));
      const tokens = tokenise(model, pieces);
      if (tokens.length === 0) {
        throw new EngineError({
          code: 'engine_error',
          message: "the model's systemone template rendered an empty prompt",
        });
      }
      const stateTokens = tokenise(model, pieces.slice(0, stateEnd)).length;
      return { outcomes, tokens, stateTokens, labels, temperature };
    });
    const answerOutcomes = labelOutcomes(question);
    return {
      question,
      outcomes: answerOutcomes,
      readings,
      ...(rating ? { collapse: (mean: ReadonlyMap<string, number>) => collapseRatings(mean, outputs) } : {}),
    };
  });
}

/** The template's view of a question: its options with the keys llama.rn gives them. */
function toTemplateQuestion(
  id: string,
  question: Question,
  profile: SystemOneProfile,
  config: LlamaCppEngineConfig,
): SystemOneQuestion {
  let options: SystemOneOption[];
  switch (question.type) {
    case 'noul': {
      const sides: SystemOneOption[] = (['false', 'true'] as const).map((side) => ({
        key: side,
        description: question.criteria?.[side] ?? null,
      }));
      options = profile.noulTrueFirst ? sides.reverse() : sides;
      break;
    }
    case 'score':
      options = question.criteria.map((level, index) => ({ key: String(index), description: level }));
      break;
    case 'choice': {
      const entries = Object.entries(question.criteria).map(([key, description]) => ({ key, description }));
      options =
        config.optionOrder === 'canonical'
          ? entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
          : entries;
      break;
    }
  }
  return { id, type: question.type, instructions: question.instructions, options };
}

/** A rating scale's distribution as a Noul: p(true) is the expected rating over its range. */
function collapseRatings(mean: ReadonlyMap<string, number>, ratings: number): Map<string, number> {
  let expected = 0;
  for (let level = 0; level < ratings; level++) {
    expected += ((mean.get(`rating:${level}`) ?? 0) * level) / (ratings - 1);
  }
  return new Map([
    ['true', expected],
    ['false', 1 - expected],
  ]);
}
