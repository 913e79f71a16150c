import { createOpenAICompatibleEngine } from '@arbiter/engine';
import type { SecondOpinion } from '@arbiter/tool-gate-analysis';

/** `toolGating.secondOpinion` of the server configuration. */
export interface SecondOpinionSettings {
  readonly baseURL: string;
  readonly model: string;
  readonly apiKeyEnv?: string;
}

/**
 * The model the operator named for the tool gate's second opinion, as the analysis takes it: the
 * same for the decision routes' built-in engine and the UHP harnesses' gate, so both judge a call
 * the analysis does not understand alike. Undefined when none is configured.
 */
export function secondOpinionEngine(settings: SecondOpinionSettings | undefined): SecondOpinion | undefined {
  if (settings === undefined) return undefined;
  const engine = createOpenAICompatibleEngine({
    kind: 'openai-compatible',
    baseURL: settings.baseURL,
    model: settings.model,
    ...(settings.apiKeyEnv === undefined ? {} : { apiKeyEnv: settings.apiKeyEnv }),
  });
  return { engine, name: settings.model };
}
