import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';

/** Environment variable holding the key of an `openai-compatible:` feedback model (optional for local servers). */
export const FEEDBACK_API_KEY_ENV = 'ARBITER_FEEDBACK_API_KEY';

export interface FeedbackModel {
  /** The spec as written, minus any secret: `openai:gpt-5-mini`, `openai-compatible:http://…#qwen3`. */
  label: string;
  model: LanguageModel;
}

/**
 * Resolves a feedback model spec to an AI SDK model:
 * - `openai-compatible:<baseURL>#<model>`: any OpenAI-compatible server; key from ARBITER_FEEDBACK_API_KEY
 * - `openai:<model>`, `anthropic:<model>`, `google:<model>`: keys from each provider's usual variable
 *   (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY), read by the provider itself.
 * Throws a TypeError naming the accepted forms when the spec is malformed.
 */
export function resolveFeedbackModel(spec: string, env: NodeJS.ProcessEnv = process.env): FeedbackModel {
  const separator = spec.indexOf(':');
  const provider = separator > 0 ? spec.slice(0, separator) : '';
  const rest = separator > 0 ? spec.slice(separator + 1) : '';
  switch (provider) {
    case 'openai-compatible': {
      const hash = rest.lastIndexOf('#');
      const baseURL = hash > 0 ? rest.slice(0, hash) : '';
      const modelId = hash > 0 ? rest.slice(hash + 1) : '';
      if (!URL.canParse(baseURL) || modelId === '') break;
      const apiKey = env[FEEDBACK_API_KEY_ENV] || undefined;
      const compatible = createOpenAICompatible({
        name: 'feedback',
        baseURL,
        ...(apiKey === undefined ? {} : { apiKey }),
      });
      return { label: spec, model: compatible.chatModel(modelId) };
    }
    case 'openai':
      if (rest === '') break;
      return { label: spec, model: createOpenAI()(rest) };
    case 'anthropic':
      if (rest === '') break;
      return { label: spec, model: createAnthropic()(rest) };
    case 'google':
      if (rest === '') break;
      return { label: spec, model: createGoogleGenerativeAI()(rest) };
  }
  throw new TypeError(
    `invalid feedback model "${spec}": use openai-compatible:<baseURL>#<model>, openai:<model>, anthropic:<model> or google:<model>`,
  );
}
