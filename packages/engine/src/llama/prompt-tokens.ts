import { EngineError } from '@arbiter/decision';
import type { LlamaModel, Token } from 'node-llama-cpp';
import type { PromptLayout } from './llama-cpp-config.js';
import type { PromptPiece } from './prompt-layouts.js';

/** The tokens every prompt starts with: BOS when the model wants one. */
export function beginning(model: LlamaModel): Token[] {
  const bos = model.tokens.bos;
  return bos !== null && model.tokens.shouldPrependBosToken ? [bos] : [];
}

/** Tokens of prompt pieces; control tokens are parsed only in trusted pieces. */
export function tokenise(model: LlamaModel, pieces: readonly PromptPiece[]): Token[] {
  return pieces.flatMap((piece) => model.tokenize(piece.text, piece.trusted));
}

/**
 * A label's tokens as the model would write them after the layout's close: the tokens of
 * close + labelPrefix + label beyond those of close alone. A layout whose close merges with a label
 * into one token cannot be read this way, and is refused rather than read wrongly.
 */
export function labelTokens(
  model: LlamaModel,
  layout: PromptLayout,
  label: string,
  cache: Map<string, Token[]>,
): Token[] {
  const cached = cache.get(label);
  if (cached) return cached;
  const close = model.tokenize(layout.close, true);
  const whole = model.tokenize(layout.close + layout.labelPrefix + label, true);
  if (whole.length <= close.length || close.some((token: Token, index: number) => whole[index] !== token)) {
    throw new EngineError({
      code: 'engine_error',
      message: `the layout's close and the label "${label}" are tokenised together, so the label's tokens cannot be read; end close with a space, a newline or a control token, or set labelPrefix`,
    });
  }
  const tokens = whole.slice(close.length);
  cache.set(label, tokens);
  return tokens;
}
