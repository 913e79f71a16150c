import { EngineError, type Question, type State } from '@arbiter/decision';
import { Template } from '@huggingface/jinja';
import type { PromptPiece } from './prompt-layouts.js';
import type { SystemOneProfile } from './system-one-profiles.js';

/**
 * A System One model's own prompt: its `systemone` Jinja template, given one question at a time with
 * the input llama.rn gives it (cpp/rn-decision.cpp, `render`): `id`, `type`, `instructions`, `state`,
 * `options` (`key`, `description`, and `label` for models that show label texts), `questions` for
 * models that list them all, `images` (always empty here) and `sep`, which a template writes where the
 * prompt is to be tokenised in separate pieces.
 *
 * Values from the request are raw JSON, as the template expects them; the template serialises what is
 * not text. They are untrusted: the model's control tokens written in them must stay text. So each
 * string from the request is wrapped in two private-use characters before rendering, and the rendered
 * text is cut there: what lay between them is tokenised as plain text, the template's own text with
 * control tokens. (llama.rn tokenises the whole rendered text with control tokens, so a state holding
 * `<|im_end|>` would close the turn it sits in; here it cannot. The price is that the tokens at the
 * edges of a value can differ from a tokenisation of the whole text.)
 */

/** The template input of one option. */
export interface SystemOneOption {
  readonly key: string;
  readonly description: unknown;
}

/** One question as the template is given it. */
export interface SystemOneQuestion {
  readonly id: string;
  readonly type: Question['type'];
  readonly instructions: unknown;
  readonly options: readonly SystemOneOption[];
}

const OPEN = '\uE000';
const CLOSE = '\uE001';
const SEP = '\uE002';
/** Opens a value of the state: where the state ends is where the request's shared prefix can end. */
const OPEN_STATE = '\uE003';
const MARKERS = /[\uE000-\uE003]/g;

/** A rendered prompt: its pieces, and how many of them reach the end of the state's last value. */
export interface SystemOnePrompt {
  readonly pieces: readonly PromptPiece[];
  readonly stateEnd: number;
}

/** Compiles a model's template, or says why it cannot be used. */
export function compileSystemOneTemplate(source: string): Template {
  try {
    return new Template(source);
  } catch (error) {
    throw new EngineError({
      code: 'engine_unavailable',
      message: `the model's systemone template does not parse: ${error instanceof Error ? error.message : String(error)}`,
      isRetryable: false,
    });
  }
}

/**
 * The prompt of one question, as pieces to tokenise: `options` are in the order shown, and
 * `labelTexts` (when the profile shows them) are the texts of the labels in that order.
 */
export function renderSystemOnePrompt(
  template: Template,
  profile: SystemOneProfile,
  state: State,
  question: SystemOneQuestion,
  all: readonly SystemOneQuestion[],
  labelTexts: readonly string[],
): SystemOnePrompt {
  const options = (shown: readonly SystemOneOption[]) =>
    shown.map((option, index) => ({
      key: option.key,
      description: option.description ?? null,
      ...(profile.labelTexts ? { label: labelTexts[index] } : {}),
    }));
  let input: Record<string, unknown> = {
    id: question.id,
    type: question.type,
    instructions: question.instructions,
    state,
    options: options(question.options),
  };
  if (profile.listQuestions) {
    input.questions = all.map((each) => ({
      id: each.id,
      type: each.type,
      instructions: each.instructions,
      options: options(each.options),
    }));
  }
  // Sorted before the wrapping: wrapped keys would sort differently.
  if (profile.sortKeys) input = sortKeys(input) as Record<string, unknown>;
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    wrapped[name] =
      name === 'options' || name === 'questions' ? wrapOptionsOrQuestions(value) : wrapField(name, value);
  }
  wrapped.images = [];
  wrapped.sep = SEP;
  let rendered: string;
  try {
    rendered = template.render(wrapped);
  } catch (error) {
    throw new EngineError({
      code: 'engine_error',
      message: `the model's systemone template failed to render: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  return cut(rendered);
}

/** Fields whose values come from the request, and are wrapped; `type` and `label` are the engine's own. */
const UNTRUSTED_FIELDS = new Set(['id', 'instructions', 'state', 'key', 'description']);

function wrapField(name: string, value: unknown): unknown {
  if (name === 'state') return wrap(value, OPEN_STATE);
  return UNTRUSTED_FIELDS.has(name) ? wrap(value, OPEN) : value;
}

function wrapOptionsOrQuestions(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((item) => {
    if (!isRecord(item)) return item;
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(item)) {
      out[name] = name === 'options' ? wrapOptionsOrQuestions(field) : wrapField(name, field);
    }
    return out;
  });
}

/** Every string of a request value, object keys included, wrapped; the markers in it removed first. */
function wrap(value: unknown, open: string): unknown {
  if (typeof value === 'string') return `${open}${value.replace(MARKERS, '')}${CLOSE}`;
  if (Array.isArray(value)) return value.map((item) => wrap(item, open));
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [wrap(key, open) as string, wrap(item, open)]),
    );
  }
  return value;
}

/** The rendered text cut into pieces: wrapped values untrusted, the template's text trusted, cut at `sep`. */
function cut(rendered: string): SystemOnePrompt {
  const pieces: PromptPiece[] = [];
  let stateEnd = 0;
  let text = '';
  let inside: string | null = null;
  const flush = (trusted: boolean) => {
    if (text !== '') pieces.push({ text, trusted });
    text = '';
  };
  for (const character of rendered) {
    if (character === OPEN || character === OPEN_STATE || character === CLOSE) {
      if ((character === CLOSE) !== (inside !== null)) {
        throw new EngineError({
          code: 'engine_error',
          message:
            "the model's systemone template cut or repeated a value of the request inside another, so which text came from the request cannot be told",
        });
      }
      flush(inside === null);
      if (character === CLOSE && inside === OPEN_STATE) stateEnd = pieces.length;
      inside = character === CLOSE ? null : character;
    } else if (character === SEP && inside === null) {
      flush(true);
    } else {
      text += character;
    }
  }
  if (inside !== null) {
    throw new EngineError({
      code: 'engine_error',
      message: "the model's systemone template cut a value of the request short",
    });
  }
  flush(true);
  return { pieces, stateEnd };
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys(value[key])]),
    );
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
