import { describe, expect, it } from 'vitest';
import { languageModelFromSpec } from './language-model-spec.js';

/** The provider and model id an AI SDK model object reports. */
function identity(model: ReturnType<typeof languageModelFromSpec>) {
  if (typeof model === 'string') throw new Error('expected a model object');
  return { provider: model.provider, modelId: model.modelId };
}

describe('languageModelFromSpec', () => {
  it("resolves the hosted providers by the AI SDK's provider:model names", () => {
    expect(identity(languageModelFromSpec('openai:gpt-5-mini'))).toMatchObject({
      provider: expect.stringMatching(/^openai\./),
      modelId: 'gpt-5-mini',
    });
    expect(identity(languageModelFromSpec('anthropic:claude-sonnet-4-5'))).toMatchObject({
      provider: expect.stringMatching(/^anthropic\./),
      modelId: 'claude-sonnet-4-5',
    });
    expect(identity(languageModelFromSpec('google:gemini-2.5-flash'))).toMatchObject({
      provider: expect.stringMatching(/^google\./),
      modelId: 'gemini-2.5-flash',
    });
  });

  it('resolves any OpenAI-compatible server by its base URL, keeping colons in the model name', () => {
    expect(
      identity(languageModelFromSpec('openai-compatible:http://127.0.0.1:11434/v1#llama3.1:8b')),
    ).toEqual({
      provider: 'openai-compatible.chat',
      modelId: 'llama3.1:8b',
    });
  });

  it('refuses other forms, naming the accepted ones', () => {
    for (const spec of [
      'gpt-5',
      'openai:',
      'mistral:large',
      'openai-compatible:not a url#m',
      'openai-compatible:http://h/v1',
    ]) {
      expect(() => languageModelFromSpec(spec)).toThrow(
        /use openai-compatible:<baseURL>#<model>, openai:<model>/,
      );
    }
  });
});
