import { defineEngineKind } from '../catalog/engine-kind.js';
import { openAICompatibleEngineConfigSchema } from './openai-compatible-config.js';
import { createOpenAICompatibleEngine } from './openai-compatible-engine.js';

/** Catalog engine kind `openai-compatible`: a model server speaking the chat-completions API. */
export const openAICompatibleEngineKind = defineEngineKind({
  configSchema: openAICompatibleEngineConfigSchema,
  create: (config) => createOpenAICompatibleEngine(config),
});
