import { describe, expect, it } from 'vitest';
import { createProvider } from './create-provider.js';
import { PROVIDER_KINDS } from './provider-kind.js';

describe('createProvider', () => {
  it('builds every provider kind, and names an openai-compatible one as configured', () => {
    for (const kind of PROVIDER_KINDS) {
      const provider = createProvider(kind, { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', name: 'local' });
      expect(provider.languageModel('m').modelId).toBe('m');
    }
    expect(
      createProvider('openai-compatible', { baseURL: 'http://127.0.0.1:9/v1', name: 'local' }).languageModel(
        'm',
      ).provider,
    ).toBe('local.chat');
  });

  it('refuses an openai-compatible provider without a base URL', () => {
    expect(() => createProvider('openai-compatible')).toThrow('needs a baseURL');
  });
});
