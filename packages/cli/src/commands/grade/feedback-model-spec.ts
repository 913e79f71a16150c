import { languageModelFromSpec } from '@arbiter/ai-providers';
import type { LanguageModel } from 'ai';

/** Environment variable holding the key of an `openai-compatible:` feedback model (optional for local servers). */
export const FEEDBACK_API_KEY_ENV = 'ARBITER_FEEDBACK_API_KEY';

export interface FeedbackModel {
  /** The spec as written, minus any secret: `openai:gpt-5-mini`, `openai-compatible:http://…#qwen3`. */
  label: string;
  model: LanguageModel;
}

/**
 * Resolves a feedback model spec, in the AI SDK's `provider:model` style, through the shared provider
 * registry (`@arbiter/ai-providers`): `openai-compatible:<baseURL>#<model>` takes its key from
 * ARBITER_FEEDBACK_API_KEY; `openai:`, `anthropic:` and `google:` models read each provider's usual
 * variable. Throws a TypeError naming the accepted forms when the spec is malformed.
 */
export function resolveFeedbackModel(spec: string, env: NodeJS.ProcessEnv = process.env): FeedbackModel {
  const compatibleApiKey = env[FEEDBACK_API_KEY_ENV] || undefined;
  return {
    label: spec,
    model: languageModelFromSpec(spec, {
      purpose: 'feedback model',
      ...(compatibleApiKey === undefined ? {} : { compatibleApiKey }),
    }),
  };
}
