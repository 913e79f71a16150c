import { createProviderRegistry, type LanguageModel } from 'ai';
import { createProvider } from './create-provider.js';

export interface LanguageModelSpecOptions {
  /** The key of an `openai-compatible:` model (optional for local servers). */
  readonly compatibleApiKey?: string;
  /** What the model is for, in the error of a malformed spec (`feedback model`). Default `model`. */
  readonly purpose?: string;
}

/**
 * The hosted providers by the AI SDK's `provider:model` names, each reading its usual key variable
 * (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY) when a model is called.
 */
let hosted: ReturnType<typeof createHostedRegistry> | undefined;
const createHostedRegistry = () =>
  createProviderRegistry({
    openai: createProvider('openai'),
    anthropic: createProvider('anthropic'),
    google: createProvider('google'),
  });

const FORMS = 'openai-compatible:<baseURL>#<model>, openai:<model>, anthropic:<model> or google:<model>';

/**
 * Resolves a model named in the AI SDK's `provider:model` style: `openai:gpt-5-mini`,
 * `anthropic:claude-sonnet-4-5`, `google:gemini-2.5-flash`, and for any OpenAI-compatible server
 * `openai-compatible:<baseURL>#<model>`. Throws a TypeError naming the accepted forms otherwise.
 */
export function languageModelFromSpec(spec: string, options: LanguageModelSpecOptions = {}): LanguageModel {
  const separator = spec.indexOf(':');
  const provider = separator > 0 ? spec.slice(0, separator) : '';
  const rest = separator > 0 ? spec.slice(separator + 1) : '';
  if (provider === 'openai-compatible') {
    const hash = rest.lastIndexOf('#');
    const baseURL = hash > 0 ? rest.slice(0, hash) : '';
    const modelId = hash > 0 ? rest.slice(hash + 1) : '';
    if (URL.canParse(baseURL) && modelId !== '') {
      const apiKey = options.compatibleApiKey;
      return createProvider('openai-compatible', {
        baseURL,
        name: 'openai-compatible',
        ...(apiKey === undefined ? {} : { apiKey }),
      }).languageModel(modelId);
    }
  } else if ((provider === 'openai' || provider === 'anthropic' || provider === 'google') && rest !== '') {
    hosted ??= createHostedRegistry();
    return hosted.languageModel(`${provider}:${rest}`);
  }
  throw new TypeError(`invalid ${options.purpose ?? 'model'} "${spec}": use ${FORMS}`);
}
