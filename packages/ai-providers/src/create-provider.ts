import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ProviderV3 } from '@ai-sdk/provider';
import type { ProviderKind } from './provider-kind.js';

export interface ProviderSettings {
  /** Where the provider is reached; required for `openai-compatible`, the provider's own default otherwise. */
  readonly baseURL?: string;
  /** The key; absent, each hosted provider reads its usual variable (OPENAI_API_KEY, …) when called. */
  readonly apiKey?: string;
  /** How an `openai-compatible` provider names itself in provider metadata. Default `openai-compatible`. */
  readonly name?: string;
}

/** One factory from a provider kind and its settings to the AI SDK provider, for every caller. */
export function createProvider(kind: ProviderKind, settings: ProviderSettings = {}): ProviderV3 {
  const { baseURL, apiKey } = settings;
  const common = {
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(apiKey === undefined ? {} : { apiKey }),
  };
  switch (kind) {
    case 'openai-compatible':
      if (baseURL === undefined) throw new TypeError('an openai-compatible provider needs a baseURL');
      return createOpenAICompatible({
        name: settings.name ?? 'openai-compatible',
        baseURL,
        ...(apiKey === undefined ? {} : { apiKey }),
        // Streamed usage arrives only when asked for (`stream_options.include_usage`).
        includeUsage: true,
      });
    case 'openai':
      return createOpenAI(common);
    case 'anthropic':
      return createAnthropic(common);
    case 'google':
      return createGoogleGenerativeAI(common);
  }
}
